import { sql } from 'drizzle-orm';
import type { HistoryRetention } from '../config';
import type { Db } from '../db/client';
import { decodeDay, packedBuckets } from './days';
import { DAY_MS, HOUR_MS } from './rollup';
import { rowsOf } from './rows';

/** Uptime of a monitor's periods and of many monitors' 30 days. Callers check tenancy first. */

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
