import { type SQL, sql } from 'drizzle-orm';
import type { HistoryRetention } from '../config';
import type { Db } from '../db/client';
import { bucketOf, packedBuckets } from './days';
import { type Bucket, DAY_MS, FIVE_MINUTES_MS, HOUR_MS, mergeBuckets } from './rollup';
import { rowsOf } from './rows';
import { num, round1 } from './sql-values';

/** A monitor's chart points. Callers check tenancy first (getMonitor answers 404). */

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
