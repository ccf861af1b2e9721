import { sql } from 'drizzle-orm';
import { MONITOR_TYPES } from '../../common/monitor-types';
import type { Db } from '../db/client';
import { CHECKS } from '../engine/checks';
import { diskReadings } from './disk-days';
import { daysUntilFull, PROJECTION_WINDOW_MS, roundDays } from './projection';
import { rowsOf } from './rows';

/** No upper bound: a reading stamped by a server clock ahead of ours still counts. */
const LATEST_MS = Date.UTC(9999, 11, 31);
/** The types whose check reads a server's disks; their state keeps the growth samples the projection fits. */
const DISK_TYPES = sql.join(
    MONITOR_TYPES.filter((type) => CHECKS[type].disks).map((type) => sql`${type}`),
    sql`, `
);

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
