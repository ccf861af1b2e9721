import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyScope } from '../auth/actor';
import { requireWriter } from '../auth/guard';
import { listQuerySchema, pageOf, toListQuery } from '../repositories/list-query';
import {
    createStatusPage,
    deleteStatusPage,
    findStatusPage,
    listStatusPages,
    parseStatusPage,
    statusPageBody,
    toStatusPage,
    updateStatusPage,
} from '../status-pages/pages';
import { publicView } from '../status-pages/public-view';
import { listSubscribers, removeSubscriber } from '../status-pages/subscribers';
import { incidentUpdateBody, listIncidentUpdates, postIncidentUpdate } from '../status-pages/updates';
import { mutate, sentence } from './mutate';
import { answers, noContent } from './responses/answers';
import { incidentUpdate, publicStatusAnswer, statusPage, subscriber } from './responses/status-pages';
import { idParams } from '../validation/schemas';

const subscriberParams = z.object({
    id: z.coerce.number({ error: 'id must be a number' }).int().positive().max(2_147_483_647),
    subscriberId: z.coerce.number({ error: 'subscriberId must be a number' }).int().positive().max(2_147_483_647),
});
const incidentParams = z.object({ id: z.string().regex(/^[A-Za-z0-9-]{1,100}$/, 'id must be an incident id') });

/**
 * Status pages (`/api/status-pages`: list, read, create, update, delete) and the public updates of an incident
 * (`/api/incidents/{id}/updates`). Reads for every member of the company, writes for its admins; a super admin
 * names the company with `company_id`. What visitors see is in routes/public-status.ts.
 */
export const statusPageRoutes: FastifyPluginAsyncZod = async (app) => {
    const { db, keys } = app.ctx;
    const scope = (req: FastifyRequest) => companyScope(req.actor);
    const writer = { onRequest: requireWriter };
    const key = keys.secretsAtRest;

    app.get(
        '/api/status-pages',
        {
            schema: {
                querystring: listQuerySchema,
                response: answers({ 200: z.object({ results: z.array(statusPage) }) }, 400, 401),
            },
        },
        async (req, reply) => {
            const all = (await listStatusPages(db, scope(req))).map((p) => toStatusPage(key, p));
            const page = pageOf(all, toListQuery(req.query), 'status-pages', {
                id: (p) => p.id,
                slug: (p) => p.slug,
                title: (p) => p.title.toLowerCase(),
            });
            if (page.contentRange) reply.header('Content-Range', page.contentRange);
            return { results: page.rows };
        }
    );
    app.get(
        '/api/status-pages/:id',
        { schema: { params: idParams, response: answers({ 200: statusPage }, 400, 401, 404) } },
        async (req) => toStatusPage(key, await findStatusPage(db, scope(req), req.params.id))
    );
    // What visitors would see now, for the console's preview (a private page included, without its key).
    app.get(
        '/api/status-pages/:id/preview',
        { schema: { params: idParams, response: answers({ 200: publicStatusAnswer }, 400, 401, 404) } },
        async (req) => publicView(db, await findStatusPage(db, scope(req), req.params.id))
    );
    app.post(
        '/api/status-pages',
        { ...writer, schema: { body: statusPageBody, response: answers({ 201: statusPage }, 400, 401, 403) } },
        async (req, reply) => {
            const body = parseStatusPage(req.body);
            const page = await mutate(app, req, async (tx) => {
                const result = await createStatusPage(tx, key, req.actor, body);
                return {
                    result,
                    change: {
                        event: 'STATUS_PAGE_CREATED',
                        companyId: result.row.companyId,
                        message: sentence(req, 'Status page', result.row.title, 'created'),
                    },
                };
            });
            return reply.status(201).send(toStatusPage(key, page, !body.is_public && !body.access_key));
        }
    );
    app.put(
        '/api/status-pages/:id',
        {
            ...writer,
            schema: {
                params: idParams,
                body: statusPageBody,
                response: answers({ 200: statusPage }, 400, 401, 403, 404),
            },
        },
        async (req) => {
            const body = parseStatusPage(req.body);
            const before = await findStatusPage(db, scope(req), req.params.id);
            const page = await mutate(app, req, async (tx) => {
                const result = await updateStatusPage(tx, key, scope(req), req.params.id, body);
                return {
                    result,
                    change: {
                        event: 'STATUS_PAGE_UPDATED',
                        companyId: result.row.companyId,
                        message: sentence(req, 'Status page', result.row.title, 'updated'),
                    },
                };
            });
            // A key generated by this write (the page turned private without one) is shown once, here.
            return toStatusPage(
                key,
                page,
                before.row.accessKey === null && page.row.accessKey !== null && !body.access_key
            );
        }
    );
    app.delete(
        '/api/status-pages/:id',
        { ...writer, schema: { params: idParams, response: answers({ 200: statusPage }, 400, 401, 403, 404) } },
        async (req) => {
            const page = await mutate(app, req, async (tx) => {
                const result = await deleteStatusPage(tx, scope(req), req.params.id);
                return {
                    result,
                    change: {
                        event: 'STATUS_PAGE_DELETED',
                        companyId: result.row.companyId,
                        message: sentence(req, 'Status page', result.row.title, 'deleted'),
                    },
                };
            });
            return toStatusPage(key, page);
        }
    );

    app.get(
        '/api/status-pages/:id/subscribers',
        {
            ...writer,
            schema: {
                params: idParams,
                response: answers({ 200: z.object({ results: z.array(subscriber) }) }, 400, 401, 403, 404),
            },
        },
        async (req) => {
            const { row } = await findStatusPage(db, scope(req), req.params.id);
            return { results: await listSubscribers(db, row.id) };
        }
    );
    app.delete(
        '/api/status-pages/:id/subscribers/:subscriberId',
        {
            ...writer,
            schema: { params: subscriberParams, response: answers({ 204: noContent }, 400, 401, 403, 404) },
        },
        async (req, reply) => {
            const { row } = await findStatusPage(db, scope(req), req.params.id);
            await mutate(app, req, async (tx) => {
                await removeSubscriber(tx, row.id, req.params.subscriberId);
                return {
                    result: null,
                    change: {
                        event: 'STATUS_PAGE_UPDATED',
                        companyId: row.companyId,
                        message: `Subscriber ${req.params.subscriberId} removed from status page "${row.title}" by ${req.actor.username}`,
                    },
                };
            });
            return reply.status(204).send(null);
        }
    );

    app.get(
        '/api/incidents/:id/updates',
        {
            schema: {
                params: incidentParams,
                response: answers({ 200: z.object({ results: z.array(incidentUpdate) }) }, 400, 401, 404),
            },
        },
        async (req) => ({ results: await listIncidentUpdates(db, scope(req), req.params.id) })
    );
    app.post(
        '/api/incidents/:id/updates',
        {
            ...writer,
            schema: {
                params: incidentParams,
                body: incidentUpdateBody,
                response: answers({ 201: incidentUpdate }, 400, 401, 403, 404),
            },
        },
        async (req, reply) => {
            const update = await mutate(app, req, async (tx) => {
                const { update, companyId } = await postIncidentUpdate(
                    tx,
                    scope(req),
                    req.params.id,
                    req.body,
                    req.actor.username
                );
                return {
                    result: update,
                    change: {
                        event: 'INCIDENT_UPDATE_POSTED',
                        companyId,
                        message: `Public update (${update.status}) posted on incident ${update.incident_id} by ${req.actor.username}`,
                    },
                };
            });
            return reply.status(201).send(update);
        }
    );
};
