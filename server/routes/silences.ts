import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { companyScope } from '../auth/actor';
import { requireWriter } from '../auth/guard';
import { listQuerySchema, pageOf, toListQuery } from '../repositories/list-query';
import { createSilence, endSilence, listSilences, silenceBody } from '../silences/silences';
import { createWindow, deleteWindow, endWindow, listWindows, updateWindow, windowBody } from '../silences/windows';
import type { By } from '../silences/write';
import { z } from 'zod';
import { answers } from './responses/answers';
import { maintenanceWindow, silence } from './responses/silences';
import { idParams } from '../validation/schemas';

const by = (req: FastifyRequest): By => ({ name: req.actor.username, userId: req.actor.id, ip: req.ip });

/**
 * Silences (`/api/silences`: list the active and upcoming, create, DELETE ends one now) and maintenance windows
 * (`/api/maintenance-windows`: list, create, update, delete). Reads for every member of the company, writes for
 * admins; lists answer `{results}` (with Content-Range when a range is asked for).
 */
export const silenceRoutes: FastifyPluginAsyncZod = async (app) => {
    const ctx = app.ctx;
    const scope = (req: FastifyRequest) => companyScope(req.actor);
    const writer = { onRequest: requireWriter };

    app.get(
        '/api/silences',
        {
            schema: {
                querystring: listQuerySchema,
                response: answers({ 200: z.object({ results: z.array(silence) }) }, 400, 401),
            },
        },
        async (req, reply) => {
            const page = pageOf(await listSilences(ctx.db, scope(req)), toListQuery(req.query), 'silences', {
                id: (s) => s.id,
                starts_at: (s) => s.starts_at,
                ends_at: (s) => s.ends_at,
            });
            if (page.contentRange) reply.header('Content-Range', page.contentRange);
            return { results: page.rows };
        }
    );
    app.post(
        '/api/silences',
        { ...writer, schema: { body: silenceBody, response: answers({ 201: silence }, 400, 401, 403, 404) } },
        async (req, reply) => reply.status(201).send(await createSilence(ctx, scope(req), req.body, by(req)))
    );
    app.delete(
        '/api/silences/:id',
        { ...writer, schema: { params: idParams, response: answers({ 200: silence }, 400, 401, 403, 404) } },
        async (req) => endSilence(ctx, scope(req), req.params.id, by(req))
    );

    app.get(
        '/api/maintenance-windows',
        {
            schema: {
                querystring: listQuerySchema,
                response: answers({ 200: z.object({ results: z.array(maintenanceWindow) }) }, 400, 401),
            },
        },
        async (req, reply) => {
            const page = pageOf(await listWindows(ctx.db, scope(req)), toListQuery(req.query), 'maintenance-windows', {
                id: (w) => w.id,
                next_starts_at: (w) => w.next_starts_at,
            });
            if (page.contentRange) reply.header('Content-Range', page.contentRange);
            return { results: page.rows };
        }
    );
    app.post(
        '/api/maintenance-windows',
        { ...writer, schema: { body: windowBody, response: answers({ 201: maintenanceWindow }, 400, 401, 403, 404) } },
        async (req, reply) => reply.status(201).send(await createWindow(ctx, scope(req), req.body, by(req)))
    );
    app.put(
        '/api/maintenance-windows/:id',
        {
            ...writer,
            schema: {
                params: idParams,
                body: windowBody,
                response: answers({ 200: maintenanceWindow }, 400, 401, 403, 404),
            },
        },
        async (req) => updateWindow(ctx, scope(req), req.params.id, req.body, by(req))
    );
    app.post(
        '/api/maintenance-windows/:id/end',
        {
            ...writer,
            schema: { params: idParams, response: answers({ 200: maintenanceWindow }, 400, 401, 403, 404, 409) },
        },
        async (req) => endWindow(ctx, scope(req), req.params.id, by(req))
    );
    app.delete(
        '/api/maintenance-windows/:id',
        { ...writer, schema: { params: idParams, response: answers({ 200: maintenanceWindow }, 400, 401, 403, 404) } },
        async (req) => deleteWindow(ctx, scope(req), req.params.id, by(req))
    );
};
