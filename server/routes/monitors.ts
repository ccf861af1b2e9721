import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Monitor } from '../../common/entities';
import { companyScope } from '../auth/actor';
import { sealAddress } from '../auth/url-credentials';
import { requireWriter } from '../auth/guard';
import {
    createMonitor,
    deleteMonitor,
    getMonitor,
    monitorSecret,
    listByHealth,
    monitorList,
    pageMonitors,
    type MonitorBody,
    updateMonitor,
} from '../repositories/monitors';
import { openIncidentsOf } from '../incidents/read';
import { chainHaltsOf } from '../repositories/chain-halts';
import { locationResultsIn, locationResultsOf } from '../repositories/location-results';
import { inScope } from '../repositories/scope';
import { configurations } from '../db/schema';
import { listQuerySchema, planList, sendRange, toListQuery } from '../repositories/list-query';
import { withUptime } from '../history/uptime-lists';
import { withWarnings } from '../services/monitor-warnings';
import { markSilenced } from '../silences/mark';
import { type Change, mutate, sentence } from './mutate';
import { answers } from './responses/answers';
import { locationResults, monitor, monitorWritten } from './responses/entities';
import { idParams } from '../validation/schemas';
import { confirmProblem } from '../validation/locations';
import { badRequest } from '../errors';
import { checkMonitor, type MonitorInput, monitorBody } from '../validation/monitor';

/**
 * The settings to store: a password in urlCheck's `address` is encrypted into `address_secret` and masked in
 * configuration_object (security item 5); a mask sent back keeps the stored password.
 */
function sealSettings(key: Uint8Array, body: MonitorBody, stored: string | null): MonitorBody {
    let settings: unknown;
    try {
        settings = JSON.parse(body.configuration_object ?? '{}');
    } catch {
        return body; // the repository names the invalid JSON
    }
    const address = (settings as { address?: unknown } | null)?.address;
    if (typeof address !== 'string') return body;
    const sealed = sealAddress(key, address, stored);
    if (!sealed.secret) return body;
    return {
        ...body,
        configuration_object: JSON.stringify({ ...(settings as object), address: sealed.address }),
        address_secret: sealed.secret,
    };
}

const fields = (b: MonitorInput): MonitorBody => ({
    name: b.name,
    is_enabled: b.is_enabled,
    configuration_id: b.configuration_id,
    server_id: b.server_id,
    type: b.type,
    configuration_object: b.configuration_object,
    service_id: b.service_id ?? null,
    locations: b.locations,
    confirm: b.confirm,
});

const change = (req: FastifyRequest, m: Monitor, companyId: number, event: Change['event'], verb: string): Change => ({
    event,
    message: sentence(req, 'Monitor', m.name, verb),
    companyId,
    configuration: m.configuration ? { id: m.configuration.id, name: m.configuration.name } : null,
    server: m.server ? { id: m.server.id, name: m.server.name } : null,
    monitor: { id: m.id, name: m.name },
});

/** Monitors (docs/spec.md §7) and the dashboard's failed and warning lists. */
export const monitorRoutes: FastifyPluginAsyncZod = async (app) => {
    const db = app.ctx.db;
    const key = app.ctx.keys.secretsAtRest;
    const allowPrivate = app.ctx.config.allowPrivateTargets;
    const scope = (req: FastifyRequest) => companyScope(req.actor);
    const writer = { onRequest: requireWriter };

    // A chain halt fails every node of the chain: `chain_halt` lets a reader show those rows as the one fact;
    // `incident` links a row to the open incident it is part of.
    const list = { response: answers({ 200: z.array(monitor) }, 401) };
    app.get('/api/monitors/failed', { schema: list, config: { cacheAnswer: true } }, async (req) => {
        const failed = await withUptime(db, await listByHealth(db, scope(req), 'failed'));
        const ids = failed.map((m) => m.id);
        const [halts, open] = [await chainHaltsOf(db, ids), await openIncidentsOf(db, ids)];
        return markSilenced(
            app.ctx.silences,
            failed.map((m) => {
                const halt = halts.get(m.id);
                const incident = open.get(m.id);
                return { ...m, ...(halt ? { chain_halt: halt } : {}), ...(incident ? { incident } : {}) };
            })
        );
    });
    app.get('/api/monitors/warnings', { schema: list, config: { cacheAnswer: true } }, async (req) =>
        markSilenced(app.ctx.silences, await withUptime(db, await listByHealth(db, scope(req), 'warnings')))
    );
    app.get(
        '/api/monitors',
        {
            schema: { querystring: listQuerySchema, response: answers({ 200: z.array(monitor) }, 400, 401) },
            config: { cacheAnswer: true },
        },
        async (req, reply) => {
            const plan = planList(toListQuery(req.query), monitorList, inScope(configurations.companyId, scope(req)));
            const page = await pageMonitors(db, plan);
            sendRange(reply, monitorList.resource, plan, page.rows.length, page.total);
            return page.rows;
        }
    );
    // Not cached with the lists: the results change with every check, not with the API's writes.
    app.get(
        '/api/monitors/location-results',
        { schema: { response: answers({ 200: locationResults }, 401) } },
        async (req) => ({ results: await locationResultsIn(db, scope(req)) })
    );
    app.get(
        '/api/monitors/:id',
        { schema: { params: idParams, response: answers({ 200: monitor }, 400, 401, 404) } },
        async (req) => {
            const found = await getMonitor(db, scope(req), req.params.id);
            const incident = (await openIncidentsOf(db, [found.id])).get(found.id);
            const results = await locationResultsOf(db, found.id);
            const [marked] = markSilenced(app.ctx.silences, [
                { ...found, ...(incident ? { incident } : {}), ...(results ? { location_results: results } : {}) },
            ]);
            return marked;
        }
    );
    app.post(
        '/api/monitors',
        { ...writer, schema: { body: monitorBody, response: answers({ 201: monitorWritten }, 400, 401, 403) } },
        async (req, reply) => {
            const created = await mutate(app, req, async (tx) => {
                const body = sealSettings(key, fields(req.body), null);
                const w = await createMonitor(tx, body, await checkMonitor(tx, scope(req), body, allowPrivate));
                return {
                    result: w.monitor,
                    change: change(req, w.monitor, w.companyId, 'MONITOR_CREATED', 'created'),
                };
            });
            return reply.status(201).send(withWarnings(created));
        }
    );
    const written = <T extends z.ZodType>(ok: T) => answers({ 200: ok }, 400, 401, 403, 404);
    app.put(
        '/api/monitors/:id',
        { ...writer, schema: { params: idParams, body: monitorBody, response: written(monitorWritten) } },
        async (req) =>
            withWarnings(
                await mutate(app, req, async (tx) => {
                    const stored = await getMonitor(tx, scope(req), req.params.id);
                    // One of the two sent alone is judged with the other as stored.
                    const problem = confirmProblem(
                        req.body.locations === undefined ? stored.locations : req.body.locations,
                        req.body.confirm ?? stored.confirm
                    );
                    if (problem) throw badRequest({ confirm: problem });
                    const body = sealSettings(key, fields(req.body), await monitorSecret(tx, req.params.id));
                    // The link to the service a monitor was created with is set on create only; an edit keeps it.
                    const checked = await checkMonitor(tx, scope(req), { ...body, service_id: null }, allowPrivate);
                    const w = await updateMonitor(tx, scope(req), req.params.id, body, checked);
                    return {
                        result: w.monitor,
                        change: change(req, w.monitor, w.companyId, 'MONITOR_UPDATED', 'updated'),
                    };
                })
            )
    );
    app.delete(
        '/api/monitors/:id',
        { ...writer, schema: { params: idParams, response: written(monitor) } },
        async (req) =>
            mutate(app, req, async (tx) => {
                const w = await deleteMonitor(tx, scope(req), req.params.id);
                return { result: w.monitor, change: change(req, w.monitor, w.companyId, 'MONITOR_DELETED', 'deleted') };
            })
    );
};
