import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { defaultStepMs } from './chart-points';
import { type DiskReading, diskReadings } from './disk-days';
import { daysUntilFullByMountpoint } from './mountpoint-projections';
import { DISK_BUCKET_MS, HOUR_MS } from './rollup';
import { rowsOf } from './rows';

/** A server's disk charts. Callers check tenancy first (findServer answers 404). */

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
