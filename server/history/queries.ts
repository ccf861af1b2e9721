import { type SQL, sql } from 'drizzle-orm';
import { MONITOR_TYPES } from '../../common/monitor-types';
import type { HistoryRetention } from '../config';
import { CHECKS } from '../engine/checks';
import type { Db } from '../db/client';
import { bucketOf, decodeDay, packedBuckets } from './days';
import { type DiskReading, diskReadings } from './disk-days';
import { daysUntilFull, PROJECTION_WINDOW_MS, roundDays } from './projection';
import { type Bucket, DISK_BUCKET_MS, FIVE_MINUTES_MS, HOUR_MS, LEVEL_NAME, type Level, mergeBuckets } from './rollup';
import { rowsOf } from './rows';

/** Reads of monitor and disk history. Callers check tenancy first (getMonitor / findServer answer 404). */

const DAY_MS = 86_400_000;
/** No upper bound: a reading stamped by a server clock ahead of ours still counts. */
const LATEST_MS = Date.UTC(9999, 11, 31);
/** The types whose check reads a server's disks; their state keeps the growth samples the projection fits. */
const DISK_TYPES = sql.join(
    MONITOR_TYPES.filter((type) => CHECKS[type].disks).map((type) => sql`${type}`),
    sql`, `
);

type Tier = 'raw' | 'history_5m' | 'history_1h';

export interface HistoryPoint {
    t: string;
    ok: number;
    warning: number;
    error: number;
    latency_avg_ms: number | null;
    latency_max_ms: number | null;
    value_last: number | null;
    value_min: number | null;
    value_max: number | null;
}

/** The step a chart of this range gets when none is asked for: a few hundred points at most. */
export function defaultStepMs(rangeMs: number): number {
    if (rangeMs <= 2 * HOUR_MS) return 60_000;
    if (rangeMs <= 2 * DAY_MS) return FIVE_MINUTES_MS;
    if (rangeMs <= 8 * DAY_MS) return 15 * 60_000;
    if (rangeMs <= 32 * DAY_MS) return HOUR_MS;
    if (rangeMs <= 95 * DAY_MS) return 6 * HOUR_MS;
    return DAY_MS;
}

const retentionMs = (r: HistoryRetention): Record<Tier, number> => ({
    raw: r.rawHours * HOUR_MS,
    history_5m: r.fiveMinuteDays * DAY_MS,
    history_1h: r.hourlyDays * DAY_MS,
});
const TIER_MS: Record<Tier, number> = { raw: 0, history_5m: FIVE_MINUTES_MS, history_1h: HOUR_MS };

/**
 * Where a chart reads: raw checks when the whole range is still kept raw (exact and up to the last check), else
 * the hourly rollups for steps of an hour or more, else the 5-minute rollups while they hold `fromMs`. A range
 * older than every finer resolution's retention reads the hourly rollups (what exists); the step grows to match.
 */
export function chooseTier(stepMs: number, fromMs: number, nowMs: number, r: HistoryRetention): Tier {
    const kept = retentionMs(r);
    if (fromMs >= nowMs - kept.raw) return 'raw';
    if (stepMs >= HOUR_MS) return 'history_1h';
    return fromMs >= nowMs - kept.history_5m ? 'history_5m' : 'history_1h';
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const round1 = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v) * 10) / 10);

export async function monitorHistory(
    db: Db,
    monitorId: number,
    fromMs: number,
    toMs: number,
    requestedStepMs: number | null,
    r: HistoryRetention,
    nowMs = Date.now()
): Promise<{ step_seconds: number; points: HistoryPoint[] }> {
    const wanted = requestedStepMs ?? defaultStepMs(toMs - fromMs);
    const tier = chooseTier(wanted, fromMs, nowMs, r);
    const stepMs = Math.max(wanted, TIER_MS[tier]);
    const from = new Date(fromMs).toISOString();
    const to = new Date(toMs).toISOString();
    const points =
        tier === 'raw'
            ? (await rowsOf(db, rawPoints(monitorId, from, to, stepMs))).map((x) => ({
                  t: new Date(Number(x.b)).toISOString(),
                  ok: Number(x.ok),
                  warning: Number(x.warning),
                  error: Number(x.error),
                  latency_avg_ms: round1(x.lat_avg),
                  latency_max_ms: round1(x.lat_max),
                  value_last: num(x.v_last),
                  value_min: num(x.v_min),
                  value_max: num(x.v_max),
              }))
            : stepPoints(
                  [
                      ...(await packedBuckets(
                          db,
                          monitorId,
                          tier === 'history_5m' ? 'fiveMinutes' : 'hours',
                          fromMs,
                          toMs
                      )),
                      ...(await rollupRows(db, tier, monitorId, from, to)),
                  ],
                  stepMs
              );
    return { step_seconds: stepMs / 1000, points };
}

function rawPoints(monitorId: number, from: string, to: string, stepMs: number): SQL {
    return sql`
        select floor(extract(epoch from t) * 1000 / ${stepMs}) * ${stepMs} as b,
            count(*) filter (where level = 0) as ok, count(*) filter (where level = 1) as warning,
            count(*) filter (where level = 2) as error, avg(latency_ms) as lat_avg, max(latency_ms) as lat_max,
            (array_agg(value order by t desc) filter (where value is not null))[1] as v_last,
            min(value) as v_min, max(value) as v_max
        from check_results where monitor_id = ${monitorId} and t >= ${from} and t < ${to}
        group by 1 order by 1`;
}

/** The rollup rows of days not packed yet (the current one, or an upgraded database's). */
async function rollupRows(db: Db, tier: Tier, monitorId: number, from: string, to: string): Promise<Bucket[]> {
    const rows = await rowsOf(
        db,
        sql`select monitor_id, extract(epoch from bucket) * 1000 as bucket_ms, ok, warning, error, latency_count,
                latency_sum_ms, latency_max_ms, value_last, value_min, value_max
            from ${sql.raw(tier)} where monitor_id = ${monitorId} and bucket >= ${from} and bucket < ${to}`
    );
    return rows.map(bucketOf);
}

/** Buckets summed into chart points of `stepMs`, oldest first; the last reading is the latest bucket's. */
function stepPoints(buckets: Bucket[], stepMs: number): HistoryPoint[] {
    const byStep = new Map<number, Bucket>();
    for (const b of [...buckets].sort((x, y) => x.bucket - y.bucket)) {
        const at = Math.floor(b.bucket / stepMs) * stepMs;
        const prev = byStep.get(at);
        byStep.set(at, prev ? mergeBuckets(prev, b) : { ...b, bucket: at });
    }
    return [...byStep.values()].map((b) => ({
        t: new Date(b.bucket).toISOString(),
        ok: b.ok,
        warning: b.warning,
        error: b.error,
        latency_avg_ms: b.latencyCount > 0 ? round1(b.latencySumMs / b.latencyCount) : null,
        latency_max_ms: round1(b.latencyMaxMs),
        value_last: b.valueLast,
        value_min: b.valueMin,
        value_max: b.valueMax,
    }));
}

export const UPTIME_PERIODS = { '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS, '1y': 365 * DAY_MS } as const;
export type UptimePeriod = keyof typeof UPTIME_PERIODS;

const ceilHour = (ms: number) => Math.ceil(ms / HOUR_MS) * HOUR_MS;

/** Where a period from `from` counts raw checks (rawStart) and 5-minute buckets (fiveStart); hours before. */
function uptimeEdges(from: number, nowMs: number, r: HistoryRetention) {
    const rawStart = Math.max(from, ceilHour(nowMs - r.rawHours * HOUR_MS));
    const fiveStart = Math.min(rawStart, Math.max(from, ceilHour(nowMs - r.fiveMinuteDays * DAY_MS)));
    return { rawStart, fiveStart };
}

/**
 * Uptime (percent of checks not Error; null without checks) of a period, read without overlap: raw checks where
 * they are kept, 5-minute rollups before that, hourly rollups before those (rows of days not packed yet here; the
 * packed days' buckets are added by monitorUptime). Each edge is a whole hour, so no bucket is counted twice.
 */
function uptimeSources(monitorIds: number[], periodMs: number, nowMs: number, r: HistoryRetention) {
    const from = nowMs - periodMs;
    const { rawStart, fiveStart } = uptimeEdges(from, nowMs, r);
    const ids = sql.raw(monitorIds.map((id) => Math.trunc(id)).join(',') || 'null');
    const iso = (ms: number) => new Date(ms).toISOString();
    return sql`
        select monitor_id, count(*) filter (where level < 2) as up, count(*) as total
        from check_results where monitor_id in (${ids}) and t >= ${iso(rawStart)} group by monitor_id
        union all
        select monitor_id, sum(ok + warning), sum(ok + warning + error)
        from history_5m where monitor_id in (${ids}) and bucket >= ${iso(fiveStart)} and bucket < ${iso(rawStart)}
        group by monitor_id
        union all
        select monitor_id, sum(ok + warning), sum(ok + warning + error)
        from history_1h where monitor_id in (${ids}) and bucket >= ${iso(from)} and bucket < ${iso(fiveStart)}
        group by monitor_id`;
}

const percent = (up: number, total: number) => (total > 0 ? Math.round((up / total) * 100_000) / 1000 : null);

export async function monitorUptime(
    db: Db,
    monitorId: number,
    r: HistoryRetention,
    nowMs = Date.now()
): Promise<Record<UptimePeriod, number | null>> {
    const out = {} as Record<UptimePeriod, number | null>;
    // Packed days count the same spans: hours before fiveStart, 5-minute buckets from it (by the hour once whole).
    const hours = await packedBuckets(db, monitorId, 'hours', nowMs - UPTIME_PERIODS['1y'], nowMs);
    for (const [period, ms] of Object.entries(UPTIME_PERIODS) as [UptimePeriod, number][]) {
        const res = await rowsOf(
            db,
            sql`select sum(up) as up, sum(total) as total from (${uptimeSources([monitorId], ms, nowMs, r)}) s`
        );
        const row = res[0] as { up: unknown; total: unknown } | undefined;
        let [up, total] = [Number(row?.up ?? 0), Number(row?.total ?? 0)];
        const from = nowMs - ms;
        const { rawStart, fiveStart } = uptimeEdges(from, nowMs, r);
        const wholeFrom = Math.min(rawStart, ceilHour(fiveStart));
        const partial =
            fiveStart < wholeFrom ? await packedBuckets(db, monitorId, 'fiveMinutes', fiveStart, wholeFrom) : [];
        for (const b of [
            ...hours.filter(
                (h) => (h.bucket >= from && h.bucket < fiveStart) || (h.bucket >= wholeFrom && h.bucket < rawStart)
            ),
            ...partial,
        ]) {
            up += b.ok + b.warning;
            total += b.ok + b.warning + b.error;
        }
        out[period] = percent(up, total);
    }
    return out;
}

/**
 * 30-day uptime of many monitors in one query, for lists: daily rollups for whole days, hourly ones for the
 * partial first day and for the last day up to the hour before the current one (a bucket is written when the
 * monitor's next check lands in a new hour, or day), and the raw checks of the previous and the current hour, so a
 * monitor a few minutes old has a figure, the one its own page shows. About 55 rows a monitor, also just after
 * midnight, when yesterday's last hour may not be in its daily bucket yet.
 */
export async function uptime30d(db: Db, monitorIds: number[], nowMs = Date.now()): Promise<Map<number, UptimeCount>> {
    const out = new Map<number, UptimeCount>();
    if (monitorIds.length === 0) return out;
    const from = nowMs - UPTIME_PERIODS['30d'];
    const firstDay = Math.ceil(from / DAY_MS) * DAY_MS;
    const edge = Math.floor(nowMs / HOUR_MS) * HOUR_MS - HOUR_MS;
    // The day the hour before the current one is in: days before it are whole and written.
    const lastDay = Math.floor(edge / DAY_MS) * DAY_MS;
    const iso = (ms: number) => new Date(ms).toISOString();
    const ids = sql.raw(monitorIds.map((id) => Math.trunc(id)).join(','));
    const res = await rowsOf(
        db,
        sql`
        select monitor_id, sum(ok + warning) as up, sum(ok + warning + error) as total from (
            select monitor_id, ok, warning, error from history_days
            where monitor_id in (${ids}) and day >= ${iso(firstDay)} and day < ${iso(lastDay)}
            union all
            select monitor_id, ok, warning, error from history_1d
            where monitor_id in (${ids}) and bucket >= ${iso(firstDay)} and bucket < ${iso(lastDay)}
            union all
            -- Two ranges, not one OR: each stays an index range (monitor, bucket) instead of every hour kept.
            select monitor_id, ok, warning, error from history_1h
            where monitor_id in (${ids}) and bucket >= ${iso(from)} and bucket < ${iso(firstDay)}
            union all
            select monitor_id, ok, warning, error from history_1h
            where monitor_id in (${ids}) and bucket >= ${iso(lastDay)} and bucket < ${iso(edge)}
            union all
            select monitor_id, count(*) filter (where level = 0), count(*) filter (where level = 1),
                count(*) filter (where level = 2)
            from check_results where monitor_id in (${ids}) and t >= ${iso(Math.max(edge, from))}
            group by monitor_id
        ) s group by monitor_id`
    );
    for (const row of res as { monitor_id: unknown; up: unknown; total: unknown }[]) {
        out.set(Number(row.monitor_id), { up: Number(row.up), total: Number(row.total) });
    }
    // The partial first day (and the last, should it be packed already) by the hour from packed days.
    const partial = await rowsOf(
        db,
        sql`select monitor_id, extract(epoch from day) * 1000 as day_ms, hours from history_days
            where monitor_id in (${ids}) and day in (${iso(firstDay - DAY_MS)}, ${iso(lastDay)})`
    );
    for (const row of partial) {
        for (const h of decodeDay(row, 'hours').hours) {
            if (!((h.bucket >= from && h.bucket < firstDay) || (h.bucket >= lastDay && h.bucket < edge))) continue;
            const c = out.get(h.monitorId) ?? { up: 0, total: 0 };
            c.up += h.ok + h.warning;
            c.total += h.ok + h.warning + h.error;
            out.set(h.monitorId, c);
        }
    }
    return out;
}

export interface UptimeCount {
    up: number;
    total: number;
}

export const uptimePercent = (c: UptimeCount | undefined) => (c ? percent(c.up, c.total) : null);

export interface CheckRow {
    t: string;
    level: Level;
    message: string | null;
    latency_ms: number | null;
    value: number | null;
    source: string | null;
}

/** The last `limit` checks, oldest first (the status bar draws left to right). */
export async function lastChecks(db: Db, monitorId: number, limit: number): Promise<CheckRow[]> {
    const res = await rowsOf(
        db,
        sql`
        select t, level, message, latency_ms, value, source from check_results
        where monitor_id = ${monitorId} order by t desc limit ${limit}`
    );
    return (res as unknown as Record<string, unknown>[])
        .map((x) => ({
            t: new Date(x.t as string).toISOString(),
            level: LEVEL_NAME[Number(x.level)] ?? 'error',
            message: (x.message as string | null) ?? null,
            latency_ms: round1(x.latency_ms),
            value: num(x.value),
            source: (x.source as string | null) ?? null,
        }))
        .reverse();
}

export interface MountpointHistory {
    mountpoint: string;
    points: { t: string; used_percent: number }[];
    days_until_full: number | null;
}

/**
 * Used % per mountpoint in the range and the days until full from the last 7 days, whatever the range shown. A
 * range within the raw retention (48 h) reads every reading, a point per minute up to 2 hours (5 minutes up to 2
 * days), so a new disk shows within a minute; longer ones the 15-minute buckets, averaged over longer steps.
 */
export async function diskHistory(
    db: Db,
    serverId: number,
    fromMs: number,
    toMs: number,
    nowMs = Date.now(),
    rawHours = 48,
    liveMemory?: (monitorId: number) => unknown
): Promise<MountpointHistory[]> {
    const raw = fromMs >= nowMs - rawHours * HOUR_MS;
    const stepMs = raw ? defaultStepMs(toMs - fromMs) : Math.max(DISK_BUCKET_MS, defaultStepMs(toMs - fromMs));
    const res = raw
        ? await rowsOf(
              db,
              sql`
            select mountpoint, floor(extract(epoch from t) * 1000 / ${stepMs}) * ${stepMs} as b,
                avg(used_percent) as used from disk_samples
            where server_id = ${serverId} and t >= ${new Date(fromMs).toISOString()}
                and t < ${new Date(toMs).toISOString()}
            group by 1, 2 order by 1, 2`
          )
        : stepAverages(await diskReadings(db, [serverId], fromMs, toMs), stepMs);
    const byMount = new Map<string, MountpointHistory>();
    for (const row of res as unknown as { mountpoint: string; b: unknown; used: unknown }[]) {
        let m = byMount.get(row.mountpoint);
        if (!m) {
            m = { mountpoint: row.mountpoint, points: [], days_until_full: null };
            byMount.set(row.mountpoint, m);
        }
        m.points.push({
            t: new Date(Number(row.b)).toISOString(),
            used_percent: Math.round(Number(row.used) * 100) / 100,
        });
    }
    const projections = await daysUntilFullByMountpoint(db, [serverId], nowMs, liveMemory);
    for (const [mountpoint, days] of projections.get(serverId) ?? []) {
        const m = byMount.get(mountpoint) ?? { mountpoint, points: [], days_until_full: null };
        m.days_until_full = days;
        byMount.set(mountpoint, m);
    }
    return [...byMount.values()].sort((a, b) => a.mountpoint.localeCompare(b.mountpoint));
}

/** Readings averaged by mountpoint and step, in the shape the raw query answers. */
function stepAverages(readings: DiskReading[], stepMs: number): Record<string, unknown>[] {
    const sums = new Map<string, { mountpoint: string; b: number; sum: number; n: number }>();
    for (const r of readings) {
        const b = Math.floor(r.t / stepMs) * stepMs;
        const key = `${r.mountpoint}\u0000${b}`;
        const s = sums.get(key) ?? { mountpoint: r.mountpoint, b, sum: 0, n: 0 };
        s.sum += r.usedPercent;
        s.n++;
        sums.set(key, s);
    }
    return [...sums.values()]
        .sort((x, y) => x.mountpoint.localeCompare(y.mountpoint) || x.b - y.b)
        .map((s) => ({ mountpoint: s.mountpoint, b: s.b, used: s.sum / s.n }));
}

/**
 * days_until_full of every mountpoint of the given servers. The disk monitor keeps a week of samples in its state
 * (for its own `days_until_full_threshold`), so the fit costs one row per server; a mountpoint without them is fitted
 * from disk history.
 */
export async function daysUntilFullByMountpoint(
    db: Db,
    serverIds: number[],
    nowMs = Date.now(),
    /** The running engine's memory of a monitor, fresher than the saved state. */
    liveMemory?: (monitorId: number) => unknown
): Promise<Map<number, Map<string, number | null>>> {
    const out = new Map<number, Map<string, number | null>>();
    if (serverIds.length === 0) return out;
    const ids = sql.raw(serverIds.map((id) => Math.trunc(id)).join(','));
    const series = new Map<
        string,
        { serverId: number; mountpoint: string; points: { t: number; usedPercent: number }[] }
    >();
    const add = (serverId: number, mountpoint: string, t: number, usedPercent: number) => {
        const key = `${serverId}\u0000${mountpoint}`;
        let s = series.get(key);
        if (!s) {
            s = { serverId, mountpoint, points: [] };
            series.set(key, s);
        }
        s.points.push({ t, usedPercent });
    };
    const states = await rowsOf(
        db,
        sql`
        select m.id, m.server_id, s.state -> 'memory' -> 'growth' as growth from monitors m
        left join monitor_states s on s.monitor_id = m.id
        where m.server_id in (${ids}) and m.type in (${DISK_TYPES}) and m.is_enabled
        order by m.id`
    );
    const fromState = new Set<string>();
    for (const row of states) {
        const live = (liveMemory?.(Number(row.id)) as { growth?: unknown } | undefined)?.growth;
        const saved = typeof row.growth === 'string' ? JSON.parse(row.growth) : row.growth;
        const growth = (live ?? saved) as Record<string, [number, number][]> | null;
        for (const [mountpoint, samples] of Object.entries(growth ?? {})) {
            const key = `${row.server_id}\u0000${mountpoint}`;
            if (fromState.has(key) || !Array.isArray(samples)) continue;
            fromState.add(key);
            for (const [t, used] of samples) add(Number(row.server_id), mountpoint, t, used);
        }
    }
    for (const r of await diskReadings(db, serverIds, nowMs - PROJECTION_WINDOW_MS, LATEST_MS)) {
        if (fromState.has(`${r.serverId}\u0000${r.mountpoint}`)) continue;
        add(r.serverId, r.mountpoint, r.t, r.usedPercent);
    }
    for (const s of series.values()) {
        let m = out.get(s.serverId);
        if (!m) {
            m = new Map();
            out.set(s.serverId, m);
        }
        m.set(s.mountpoint, roundDays(daysUntilFull(s.points)));
    }
    return out;
}
