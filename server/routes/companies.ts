import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { writeAudit } from '../audit';
import { requireSuperAdmin } from '../auth/guard';
import { parseCidr } from '../clients/address-guard';
import { listQuerySchema, pageOf, toListQuery } from '../list-query';
import {
    createCompany,
    deleteCompany,
    getCompany,
    listCompanies,
    toCompany,
    updateCompany,
} from '../repositories/companies';
import { idParams, readOnlyFields, stripReadOnly } from './schemas';

/** Private ranges the company's checks may reach (security item 1): CIDR strings, deduplicated. */
const allowedNetworksField = z
    .array(z.string({ error: 'Each allowed network must be a CIDR range such as 10.0.0.0/8' }).trim(), {
        error: 'Allowed networks must be a list of CIDR ranges',
    })
    .max(100, 'At most 100 allowed networks')
    .superRefine((list, ctx) => {
        for (const cidr of list) {
            const parsed = parseCidr(cidr);
            if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed });
        }
    })
    .transform((list) => [...new Set(list)])
    .optional();

const companyBody = z.strictObject({
    name: z.string({ error: 'Company name is required' }).trim().min(1, 'Company name is required').max(200),
    is_active: z.boolean().default(true),
    allowed_networks: allowedNetworksField,
    ...readOnlyFields,
});

/** Companies: super admins only (spec §6, architecture §3). List answers `{results}`. */
export const companyRoutes: FastifyPluginAsyncZod = async (app) => {
    app.addHook('onRequest', requireSuperAdmin);
    const audit = (req: { actor: { id: number }; ip: string }, message: string) =>
        writeAudit(app.ctx.db, { companyId: null, actorUserId: req.actor.id, ip: req.ip, message });

    app.get('/api/companies', { schema: { querystring: listQuerySchema } }, async (req, reply) => {
        const q = toListQuery(req.query);
        const needle = typeof q.filter.q === 'string' ? q.filter.q.toLowerCase() : null;
        const rows = (await listCompanies(app.ctx.db)).filter((c) => !needle || c.name.toLowerCase().includes(needle));
        const page = pageOf(rows, q, 'companies', {
            id: (c) => c.id,
            name: (c) => c.name.toLowerCase(),
            created_at: (c) => c.created_at,
            is_active: (c) => c.is_active,
        });
        if (page.contentRange) reply.header('Content-Range', page.contentRange);
        return { results: page.rows };
    });
    app.get('/api/companies/:id', { schema: { params: idParams } }, async (req) =>
        toCompany(await getCompany(app.ctx.db, req.params.id))
    );
    app.post('/api/companies', { schema: { body: companyBody } }, async (req, reply) => {
        const row = await createCompany(app.ctx.db, stripReadOnly(req.body));
        await audit(req, `Company "${row.name}" created by ${req.actor.username}`);
        return reply.status(201).send(toCompany(row));
    });
    app.put('/api/companies/:id', { schema: { params: idParams, body: companyBody } }, async (req) => {
        const row = await updateCompany(app.ctx.db, req.params.id, stripReadOnly(req.body));
        app.ctx.egress.forget(row.id);
        await audit(req, `Company "${row.name}" updated by ${req.actor.username}`);
        return toCompany(row);
    });
    app.delete('/api/companies/:id', { schema: { params: idParams } }, async (req) => {
        const row = await deleteCompany(app.ctx.db, req.params.id);
        await audit(req, `Company "${row.name}" deleted by ${req.actor.username}`);
        return toCompany(row);
    });
};
