import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyScope } from '../auth/actor';
import { requireWriter } from '../auth/guard';
import { servers } from '../db/schema';
import { listQuerySchema, pageOf, toListQuery } from '../list-query';
import { listMonitors } from '../repositories/monitors';
import { markSilenced } from '../silences/mark';
import {
    createServer,
    deleteServer,
    findServer,
    getServer,
    listServers,
    type ServerWritten,
    updateServer,
} from '../repositories/servers';
import { listServerServices } from '../repositories/services';
import { enabledFlag, nameField, refId, targetAddress } from './fields';
import { type Change, mutate, sentence } from './mutate';
import { answers } from './responses/answers';
import { monitor, server, service } from './responses/entities';
import { idParams, readOnlyFields } from './schemas';

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

const fields = ({ name, is_enabled, address, configuration_id }: ServerInput) => ({
    name,
    is_enabled,
    address,
    configuration_id,
});

const change = (req: FastifyRequest, w: ServerWritten, event: Change['event'], verb: string): Change => ({
    event,
    message: sentence(req, 'Server', w.server.name, verb),
    companyId: w.companyId,
    configuration: w.configuration,
    server: { id: w.server.id, name: w.server.name },
});

/** Servers (spec §7). Reads for every member of the company, writes for admins. */
export const serverRoutes: FastifyPluginAsyncZod = async (app) => {
    const db = app.ctx.db;
    const scope = (req: FastifyRequest) => companyScope(req.actor);
    const writer = { onRequest: requireWriter };

    app.get(
        '/api/servers',
        {
            schema: { querystring: listQuerySchema, response: answers({ 200: z.array(server) }, 400, 401) },
            config: { cacheAnswer: true },
        },
        async (req, reply) => {
            const q = toListQuery(req.query);
            const needle = typeof q.filter.q === 'string' ? q.filter.q.toLowerCase() : null;
            const wanted = q.filter.configuration_id === undefined ? null : Number(q.filter.configuration_id);
            const rows = (await listServers(db, scope(req))).filter(
                (s) =>
                    (!needle || s.name.toLowerCase().includes(needle) || s.address.toLowerCase().includes(needle)) &&
                    (wanted === null || s.configuration_id === wanted)
            );
            const page = pageOf(rows, q, 'servers', {
                id: (s) => s.id,
                name: (s) => s.name.toLowerCase(),
                createdAt: (s) => s.createdAt,
            });
            if (page.contentRange) reply.header('Content-Range', page.contentRange);
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
                const w = await createServer(tx, scope(req), fields(req.body));
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
                const w = await updateServer(tx, scope(req), req.params.id, fields(req.body));
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
