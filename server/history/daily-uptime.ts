import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from './rows';
import { DAY_MS, HOUR_MS } from './rollup';

/** Checks that were up (ok or warning) and all checks, by monitor and UTC day (`YYYY-MM-DD`). */
export type DailyCounts = Map<number, Map<string, { up: number; total: number }>>;

/**
 * The last `days` UTC days of each monitor, today included: whole days from the packed days and the daily rollups
 * not packed yet, the finished hours of the last day from the hourly ones, and the current and previous hour (which
 * the rollup may not have reached yet) from the raw checks. In the first hour after midnight the last day is
 * yesterday: its daily bucket is written only when each monitor's next check lands in the new day, so until then
 * yesterday would read as a day without checks.
 */
export async function dailyUptime(
    db: Db,
    monitorIds: number[],
    days: number,
    nowMs = Date.now()
): Promise<DailyCounts> {
    const out: DailyCounts = new Map();
    if (monitorIds.length === 0) return out;
    const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
    const from = today - (days - 1) * DAY_MS;
    const edge = Math.floor(nowMs / HOUR_MS) * HOUR_MS - HOUR_MS;
    // The day the hour before the current one is in: the days before it are whole and written.
    const lastDay = Math.floor(edge / DAY_MS) * DAY_MS;
    const iso = (ms: number) => new Date(ms).toISOString();
    const ids = sql.raw(monitorIds.map((id) => Math.trunc(id)).join(','));
    const rows = await rowsOf(
        db,
        sql`
        select monitor_id, to_char(bucket at time zone 'UTC', 'YYYY-MM-DD') as day,
            sum(up) as up, sum(total) as total from (
            select monitor_id, bucket, ok + warning as up, ok + warning + error as total from history_1d
            where monitor_id in (${ids}) and bucket >= ${iso(from)} and bucket < ${iso(lastDay)}
            union all
            select monitor_id, day, ok + warning, ok + warning + error from history_days
            where monitor_id in (${ids}) and day >= ${iso(from)} and day < ${iso(lastDay)}
            union all
            select monitor_id, bucket, ok + warning, ok + warning + error from history_1h
            where monitor_id in (${ids}) and bucket >= ${iso(Math.max(from, lastDay))} and bucket < ${iso(edge)}
            union all
            select monitor_id, t, case when level < 2 then 1 else 0 end, 1 from check_results
            where monitor_id in (${ids}) and t >= ${iso(Math.max(from, edge))}
        ) s group by 1, 2`
    );
    for (const row of rows) {
        const id = Number(row.monitor_id);
        const byDay = out.get(id) ?? new Map();
        byDay.set(String(row.day), { up: Number(row.up), total: Number(row.total) });
        out.set(id, byDay);
    }
    return out;
}

/** The UTC dates of the last `days` days, oldest first. */
export function lastDays(days: number, nowMs = Date.now()): string[] {
    const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
    return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}
