import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { LEVEL_NAME, type Level } from './rollup';
import type { LocationLevel } from '../../common/locations';
import { unpackLocationLevels } from './location-levels';
import { rowsOf } from './rows';
import { num, round1 } from './sql-values';

/** A monitor's latest checks. Callers check tenancy first (getMonitor answers 404). */

export interface CheckRow {
    t: string;
    level: Level;
    message: string | null;
    latency_ms: number | null;
    value: number | null;
    source: string | null;
    /** What each location saw when several checked the monitor; null for a monitor checked from one place. */
    locations: LocationLevel[] | null;
}

/** The last `limit` checks, oldest first (the status bar draws left to right). */
export async function lastChecks(db: Db, monitorId: number, limit: number): Promise<CheckRow[]> {
    const res = await rowsOf(
        db,
        sql`
        select t, level, message, latency_ms, value, source, locations from check_results
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
            locations: unpackLocationLevels((x.locations as string | null) ?? null),
        }))
        .reverse();
}
