import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_CONCURRENT_CHECKS_LIMIT, MIN_INTERVAL_SECONDS_LIMIT } from '../../common/company-quota';
import { requireSuperAdmin } from '../auth/guard';
import type { CompanyRow } from '../db/schema';
import { parseCidr } from '../clients/address-guard';
import { listQuerySchema, planList, sendRange, toListQuery } from '../repositories/list-query';
import {
    createCompany,
    deleteCompany,
    getCompany,
    companyList,
    pageCompanies,
    toCompany,
    updateCompany,
} from '../repositories/companies';
import { type Change, mutate } from './mutate';
import { endCompanySessions } from '../services/sessions';
import { answers } from './responses/answers';
import { company } from './responses/entities';
import { idParams, readOnlyFields, stripReadOnly } from '../validation/schemas';

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
    ...quotaFields(),
    allowed_networks: allowedNetworksField,
    ...readOnlyFields,
});

const change = (req: FastifyRequest, row: CompanyRow, event: Change['event'], verb: string): Change => ({
    event,
    message: `Company "${row.name}" ${verb} by ${req.actor.username}`,
    companyId: null,
});

/** Engine quota; optional, so a body of name and is_active alone keeps the stored quota. */
function quotaFields() {
    const whole = (label: string, max: number) =>
        z
            .number({ error: `${label} must be a whole number` })
            .int(`${label} must be a whole number`)
            .min(1, `${label} must be at least 1`)
            .max(max, `${label} must be at most ${max}`)
            .optional();
    return {
        max_concurrent_checks: whole('Max concurrent checks', MAX_CONCURRENT_CHECKS_LIMIT),
        min_interval_seconds: whole('Min interval (seconds)', MIN_INTERVAL_SECONDS_LIMIT),
    };
}

/** Companies: super admins only (docs/spec.md §6, architecture §3). List answers `{results}`. */
export const companyRoutes: FastifyPluginAsyncZod = async (app) => {
    app.addHook('onRequest', requireSuperAdmin);

    app.get(
        '/api/companies',
        {
            schema: {
                querystring: listQuerySchema,
                response: answers({ 200: z.object({ results: z.array(company) }) }, 400, 401, 403),
            },
        },
        async (req, reply) => {
            const plan = planList(toListQuery(req.query), companyList, undefined);
            const page = await pageCompanies(app.ctx.db, plan);
            sendRange(reply, companyList.resource, plan, page.rows.length, page.total);
            return { results: page.rows };
        }
    );
    const one = answers({ 200: company }, 400, 401, 403, 404);
    app.get('/api/companies/:id', { schema: { params: idParams, response: one } }, async (req) =>
        toCompany(await getCompany(app.ctx.db, req.params.id))
    );
    app.post(
        '/api/companies',
        { schema: { body: companyBody, response: answers({ 201: company }, 400, 401, 403) } },
        async (req, reply) => {
            const row = await mutate(app, req, async (tx) => {
                const r = await createCompany(tx, stripReadOnly(req.body));
                return { result: r, change: change(req, r, 'COMPANY_CREATED', 'created') };
            });
            return reply.status(201).send(toCompany(row));
        }
    );
    app.put('/api/companies/:id', { schema: { params: idParams, body: companyBody, response: one } }, async (req) => {
        const row = await mutate(app, req, async (tx) => {
            const r = await updateCompany(tx, req.params.id, stripReadOnly(req.body));
            return { result: r, change: change(req, r, 'COMPANY_UPDATED', 'updated') };
        });
        app.ctx.egress.forget(row.id);
        if (!row.isActive) await endCompanySessions(app.ctx, row.id);
        return toCompany(row);
    });
    app.delete(
        '/api/companies/:id',
        { schema: { params: idParams, response: answers({ 200: company }, 400, 401, 403, 404, 409) } },
        async (req) => {
            const row = await mutate(app, req, async (tx) => {
                const r = await deleteCompany(tx, req.params.id);
                return { result: r, change: change(req, r, 'COMPANY_DELETED', 'deleted') };
            });
            return toCompany(row);
        }
    );
};
