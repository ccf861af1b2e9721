import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyScope } from '../auth/actor';
import { requireWriter } from '../auth/guard';
import { sealAddress } from '../auth/url-credentials';
import { configurations, servers } from '../db/schema';
import { listQuerySchema, planList, sendRange, toListQuery } from '../repositories/list-query';
import { listMonitors } from '../repositories/monitors';
import { markSilenced } from '../silences/mark';
import {
    createServer,
    deleteServer,
    findServer,
    getServer,
    pageServers,
    serverList,
    type ServerWritten,
    updateServer,
} from '../repositories/servers';
import { inScope } from '../repositories/scope';
import { listServerServices } from '../repositories/services';
import { enabledFlag, nameField, refId, targetAddress } from '../validation/fields';
import { type Change, mutate, sentence } from './mutate';
import { answers } from './responses/answers';
import { monitor, server, service } from './responses/entities';
import { idParams, readOnlyFields } from '../validation/schemas';

const serverBody = z.strictObject({
    name: nameField(),
    is_enabled: enabledFlag,
    address: targetAddress,
    configuration_id: refId('Please select a configuration'),
    // Echoed back by react-admin from what it read; ignored.
    configuration: z.unknown().optional(),
    monitors: z.unknown().optional(),
    ...readOnlyFields,
});
type ServerInput = z.infer<typeof serverBody>;

/** The body to store: a password in the address sealed (a mask sent back keeps the stored one, same origin only). */
const fields = (
    key: Uint8Array,
    { name, is_enabled, address, configuration_id }: ServerInput,
    stored: string | null
) => {
    const sealed = sealAddress(key, address, stored);
    return { name, is_enabled, address: sealed.address, address_secret: sealed.secret, configuration_id };
};

const change = (req: FastifyRequest, w: ServerWritten, event: Change['event'], verb: string): Change => ({
    event,
    message: sentence(req, 'Server', w.server.name, verb),
    companyId: w.companyId,
    configuration: w.configuration,
    server: { id: w.server.id, name: w.server.name },
});

/** Servers (docs/spec.md §7). Reads for every member of the company, writes for admins. */
export const serverRoutes: FastifyPluginAsyncZod = async (app) => {
    const db = app.ctx.db;
    const key = app.ctx.keys.secretsAtRest;
    const scope = (req: FastifyRequest) => companyScope(req.actor);
    const writer = { onRequest: requireWriter };

    app.get(
        '/api/servers',
        {
            schema: { querystring: listQuerySchema, response: answers({ 200: z.array(server) }, 400, 401) },
            config: { cacheAnswer: true },
        },
        async (req, reply) => {
            const plan = planList(toListQuery(req.query), serverList, inScope(configurations.companyId, scope(req)));
            const page = await pageServers(db, scope(req), plan);
            sendRange(reply, serverList.resource, plan, page.rows.length, page.total);
            return page.rows;
        }
    );
    const read = <T extends z.ZodType>(ok: T) => ({ params: idParams, response: answers({ 200: ok }, 400, 401, 404) });
    app.get('/api/servers/:id', { schema: read(server) }, async (req) => getServer(db, scope(req), req.params.id));
    app.get('/api/servers/:id/monitors', { schema: read(z.array(monitor)) }, async (req) => {
        await findServer(db, scope(req), req.params.id);
        return markSilenced(app.ctx.silences, await listMonitors(db, scope(req), eq(servers.id, req.params.id)));
    });
    app.get('/api/servers/:id/services', { schema: read(z.array(service)) }, async (req) =>
        listServerServices(db, scope(req), req.params.id)
    );
    app.post(
        '/api/servers',
        { ...writer, schema: { body: serverBody, response: answers({ 201: server }, 400, 401, 403) } },
        async (req, reply) => {
            const created = await mutate(app, req, async (tx) => {
                const w = await createServer(tx, scope(req), fields(key, req.body, null));
                return { result: w.server, change: change(req, w, 'SERVER_CREATED', 'created') };
            });
            return reply.status(201).send(created);
        }
    );
    const written = answers({ 200: server }, 400, 401, 403, 404);
    app.put(
        '/api/servers/:id',
        { ...writer, schema: { params: idParams, body: serverBody, response: written } },
        async (req) =>
            mutate(app, req, async (tx) => {
                const stored = (await findServer(tx, scope(req), req.params.id)).server.addressSecret;
                const w = await updateServer(tx, scope(req), req.params.id, fields(key, req.body, stored));
                return { result: w.server, change: change(req, w, 'SERVER_UPDATED', 'updated') };
            })
    );
    app.delete('/api/servers/:id', { ...writer, schema: { params: idParams, response: written } }, async (req) =>
        mutate(app, req, async (tx) => {
            const w = await deleteServer(tx, scope(req), req.params.id);
            return { result: w.server, change: change(req, w, 'SERVER_DELETED', 'deleted') };
        })
    );
};
