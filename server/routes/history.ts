import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyScope } from '../auth/actor';
import { badRequest } from '../errors';
import { type HistoryPoint, monitorHistory } from '../history/chart-points';
import { diskHistory } from '../history/disk-history';
import { lastChecks } from '../history/last-checks';
import { monitorUptime } from '../history/uptime';
import { getMonitor } from '../repositories/monitors';
import { findServer } from '../repositories/servers';
import { findConfiguration } from '../repositories/configurations';
import { uptimeOf } from '../history/uptime-lists';
import { answers } from './responses/answers';
import {
    diskHistory as diskAnswer,
    historyCsv,
    lastChecks as checksAnswer,
    monitorHistory as historyAnswer,
    uptimeAnswer,
} from './responses/history';
import { idParams } from '../validation/schemas';

const DAY_MS = 86_400_000;
/** A chart asks for at most this many points; a smaller step over a long range is refused. */
const MAX_POINTS = 10_000;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS } as const;

const rangeQuery = z.looseObject({
    from: z.string().max(64).optional(),
    to: z.string().max(64).optional(),
    step: z.string().max(16).optional(),
});
const checksQuery = z.looseObject({ limit: z.string().max(8).optional() });
const uptimeQuery = z.looseObject({ configuration_id: z.string().max(12).optional() });

/**
 * The times a range may name: JavaScript parses years the databases cannot store (year 0, 4713 BC, 275760), and
 * nothing was checked before 1970 nor will be after 9999.
 */
const EARLIEST_MS = Date.UTC(1970, 0, 1);
const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function time(field: string, raw: string | undefined, fallback: number): number {
    if (raw === undefined || raw === '') return fallback;
    const ms = Date.parse(raw);
    if (!Number.isFinite(ms)) throw badRequest({ [field]: `${field} must be an ISO time, e.g. 2026-01-31T12:00:00Z` });
    if (ms < EARLIEST_MS || ms > LATEST_MS)
        throw badRequest({ [field]: `${field} must be a time between 1970-01-01 and 9999-12-31` });
    return ms;
}

/** `from`..`to` (default: the last 24 hours) and `step` as seconds (`300`) or with a unit (`5m`, `1h`, `1d`). */
export function parseRange(q: z.infer<typeof rangeQuery>, nowMs: number, defaultRangeMs = DAY_MS) {
    const toMs = time('to', q.to, nowMs);
    const fromMs = time('from', q.from, toMs - defaultRangeMs);
    if (fromMs >= toMs) throw badRequest({ from: 'from must be before to' });
    let stepMs: number | null = null;
    if (q.step !== undefined && q.step !== '') {
        const m = /^(\d{1,7})([smhd]?)$/.exec(q.step.trim());
        if (!m) throw badRequest({ step: 'step must be seconds (300) or a number with s, m, h or d (5m, 1h, 1d)' });
        stepMs = Number(m[1]) * UNIT_MS[(m[2] || 's') as keyof typeof UNIT_MS];
        if (stepMs < 60_000) throw badRequest({ step: 'step must be at least 1 minute' });
        if ((toMs - fromMs) / stepMs > MAX_POINTS)
            throw badRequest({ step: `step is too small for the range (at most ${MAX_POINTS} points)` });
    }
    return { fromMs, toMs, stepMs };
}

const CSV_COLUMNS: (keyof HistoryPoint)[] = [
    't',
    'ok',
    'warning',
    'error',
    'latency_avg_ms',
    'latency_max_ms',
    'value_last',
    'value_min',
    'value_max',
];

/**
 * History of a monitor (points at a step chosen from the range, and uptime), its last checks for the status bar,
 * a CSV export, and a server's disk use per mountpoint with days until full. Scoped like the rows they belong to.
 */
export const historyRoutes: FastifyPluginAsyncZod = async (app) => {
    const db = app.ctx.db;
    const retention = app.ctx.config.history;
    const scope = (req: FastifyRequest) => companyScope(req.actor);

    app.get(
        '/api/monitors/:id/history',
        {
            schema: {
                params: idParams,
                querystring: rangeQuery,
                response: answers({ 200: historyAnswer }, 400, 401, 404),
            },
        },
        async (req) => {
            await getMonitor(db, scope(req), req.params.id);
            const now = Date.now();
            const { fromMs, toMs, stepMs } = parseRange(req.query, now);
            const { points, step_seconds } = await monitorHistory(
                db,
                req.params.id,
                fromMs,
                toMs,
                stepMs,
                retention,
                now
            );
            return {
                from: new Date(fromMs).toISOString(),
                to: new Date(toMs).toISOString(),
                step_seconds,
                points,
                uptime: await monitorUptime(db, req.params.id, retention, now),
            };
        }
    );

    app.get(
        '/api/monitors/:id/history.csv',
        {
            schema: {
                params: idParams,
                querystring: rangeQuery,
                response: { ...answers({}, 400, 401, 404), 200: historyCsv },
            },
        },
        async (req, reply) => {
            await getMonitor(db, scope(req), req.params.id);
            const now = Date.now();
            const { fromMs, toMs, stepMs } = parseRange(req.query, now, 30 * DAY_MS);
            const { points } = await monitorHistory(db, req.params.id, fromMs, toMs, stepMs, retention, now);
            const lines = [
                CSV_COLUMNS.join(','),
                ...points.map((p) => CSV_COLUMNS.map((c) => (p[c] === null ? '' : String(p[c]))).join(',')),
            ];
            return reply
                .header('Content-Type', 'text/csv; charset=utf-8')
                .header('Content-Disposition', `attachment; filename="monitor-${req.params.id}-history.csv"`)
                .send(`${lines.join('\n')}\n`);
        }
    );

    app.get(
        '/api/monitors/:id/checks',
        {
            schema: {
                params: idParams,
                querystring: checksQuery,
                response: answers({ 200: checksAnswer }, 400, 401, 404),
            },
        },
        async (req) => {
            await getMonitor(db, scope(req), req.params.id);
            const raw = req.query.limit ?? '100';
            const limit = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
            if (!(limit >= 1 && limit <= 1000))
                throw badRequest({ limit: 'limit must be a whole number from 1 to 1000' });
            return { results: await lastChecks(db, req.params.id, limit) };
        }
    );

    app.get(
        '/api/servers/:id/disk-history',
        {
            schema: {
                params: idParams,
                querystring: rangeQuery,
                response: answers({ 200: diskAnswer }, 400, 401, 404),
            },
        },
        async (req) => {
            await findServer(db, scope(req), req.params.id);
            const now = Date.now();
            const { fromMs, toMs } = parseRange(req.query, now, 7 * DAY_MS);
            return { mountpoints: await diskHistory(db, req.params.id, fromMs, toMs, now, retention.rawHours) };
        }
    );

    // Lists' 30-day uptime in one request: every visible monitor and configuration, or one configuration's.
    app.get(
        '/api/uptime',
        { schema: { querystring: uptimeQuery, response: answers({ 200: uptimeAnswer }, 400, 401, 404) } },
        async (req) => {
            const raw = req.query.configuration_id;
            if (raw === undefined || raw === '') return uptimeOf(db, scope(req));
            const id = /^\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
            if (!(id >= 1 && id <= 2_147_483_647))
                throw badRequest({ configuration_id: 'configuration_id must be a number' });
            await findConfiguration(db, scope(req), id);
            return uptimeOf(db, scope(req), id);
        }
    );
};
