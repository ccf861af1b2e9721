import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Monitor } from '../../common/entities';
import { MONITOR_TYPES } from '../../common/monitor-types';
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
import { inScope } from '../repositories/scope';
import { configurations } from '../db/schema';
import { listQuerySchema, planList, sendRange, toListQuery } from '../repositories/list-query';
import { withUptime } from '../history/uptime-lists';
import { withWarnings } from '../services/monitor-warnings';
import { markSilenced } from '../silences/mark';
import { assertTargetAllowed, enabledFlag, nameField, optionalRefId, refId } from './fields';
import { type Change, mutate, sentence } from './mutate';
import { answers } from './responses/answers';
import { monitor, monitorWritten } from './responses/entities';
import { idParams, readOnlyFields } from './schemas';

/** The URL a monitor requests itself (urlCheck's `address`), from its saved settings. */
function settingsAddress(monitor: Monitor): unknown {
    try {
        return (JSON.parse(monitor.configuration_object ?? '{}') as { address?: unknown }).address;
    } catch {
        return undefined;
    }
}

/**
 * status, last_error and last_check belong to the engine: a client echoing a monitor it read may send them back,
 * and they are ignored, never stored.
 */
const monitorBody = z.strictObject({
    name: nameField(),
    is_enabled: enabledFlag,
    configuration_id: refId('Please select a configuration'),
    server_id: optionalRefId('Please select a server!'),
    type: z.enum(MONITOR_TYPES, { error: 'Please select a type!' }),
    // A JSON string per the spec; an object is accepted too and stored as text.
    configuration_object: z.preprocess(
        (v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : v),
        z
            .string({ error: 'configuration_object must be a JSON string' })
            .max(16_384, 'configuration_object is too long')
            .nullable()
            .optional()
    ),
    service_id: optionalRefId('Service not found').optional(),
    // Echoed back by clients from what they read; ignored.
    server: z.unknown().optional(),
    configuration: z.unknown().optional(),
    status: z.unknown().optional(),
    last_error: z.unknown().optional(),
    last_check: z.unknown().optional(),
    // Read from lists and the detail (history), never stored.
    uptime_30d: z.unknown().optional(),
    ...readOnlyFields,
});
type MonitorInput = z.infer<typeof monitorBody>;

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
    app.get(
        '/api/monitors/:id',
        { schema: { params: idParams, response: answers({ 200: monitor }, 400, 401, 404) } },
        async (req) => {
            const found = await getMonitor(db, scope(req), req.params.id);
            const incident = (await openIncidentsOf(db, [found.id])).get(found.id);
            const [marked] = markSilenced(app.ctx.silences, [incident ? { ...found, incident } : found]);
            return marked;
        }
    );
    app.post(
        '/api/monitors',
        { ...writer, schema: { body: monitorBody, response: answers({ 201: monitorWritten }, 400, 401, 403) } },
        async (req, reply) => {
            const created = await mutate(app, req, async (tx) => {
                const w = await createMonitor(tx, scope(req), sealSettings(key, fields(req.body), null));
                // Inside the transaction: a refused address undoes the write.
                await assertTargetAllowed(app.ctx, tx, w.companyId, 'address', settingsAddress(w.monitor));
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
                    await getMonitor(tx, scope(req), req.params.id);
                    const body = sealSettings(key, fields(req.body), await monitorSecret(tx, req.params.id));
                    const w = await updateMonitor(tx, scope(req), req.params.id, body);
                    await assertTargetAllowed(app.ctx, tx, w.companyId, 'address', settingsAddress(w.monitor));
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
