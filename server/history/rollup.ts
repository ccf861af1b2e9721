/** Pure rollup arithmetic: one bucket's counts, latency and reading, built from checks and merged with others. */

export type Level = 'ok' | 'warning' | 'error';
export const LEVEL_CODE: Record<Level, number> = { ok: 0, warning: 1, error: 2 };
export const LEVEL_NAME: Level[] = ['ok', 'warning', 'error'];

export const FIVE_MINUTES_MS = 5 * 60_000;
export const HOUR_MS = 60 * 60_000;
export const DAY_MS = 24 * HOUR_MS;
/** Disk use per mountpoint is kept at this resolution. */
export const DISK_BUCKET_MS = 15 * 60_000;

/** One check as history keeps it. */
export interface CheckSample {
    monitorId: number;
    t: number;
    level: Level;
    latencyMs: number | null;
    value: number | null;
    message: string | null;
    /** The node a validator-duty check read its chain through; null for the other types. */
    source?: string | null;
    /**
     * Each location's level, packed (location-levels.ts), when several checked the monitor. Raw rows keep it;
     * rollups and packed days count the check's own level only, so older history no longer says where.
     */
    locations?: string | null;
}

export interface Bucket {
    monitorId: number;
    /** Start of the bucket, ms since the epoch. */
    bucket: number;
    ok: number;
    warning: number;
    error: number;
    latencyCount: number;
    latencySumMs: number;
    latencyMaxMs: number | null;
    valueLast: number | null;
    valueMin: number | null;
    valueMax: number | null;
}

export const bucketStart = (t: number, sizeMs: number) => Math.floor(t / sizeMs) * sizeMs;

export function emptyBucket(monitorId: number, bucket: number): Bucket {
    return {
        monitorId,
        bucket,
        ok: 0,
        warning: 0,
        error: 0,
        latencyCount: 0,
        latencySumMs: 0,
        latencyMaxMs: null,
        valueLast: null,
        valueMin: null,
        valueMax: null,
    };
}

const max = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
const min = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

/** Adds one check (in time order) to its bucket, in place. */
export function addSample(b: Bucket, s: CheckSample): void {
    b[s.level]++;
    if (s.latencyMs !== null && Number.isFinite(s.latencyMs)) {
        b.latencyCount++;
        b.latencySumMs += s.latencyMs;
        b.latencyMaxMs = max(b.latencyMaxMs, s.latencyMs);
    }
    if (s.value !== null && Number.isFinite(s.value)) {
        b.valueLast = s.value;
        b.valueMin = min(b.valueMin, s.value);
        b.valueMax = max(b.valueMax, s.value);
    }
}

/** `later` merged into `earlier` (same monitor and bucket): what the database's upsert does, for tests and memory. */
export function mergeBuckets(earlier: Bucket, later: Bucket): Bucket {
    return {
        ...earlier,
        ok: earlier.ok + later.ok,
        warning: earlier.warning + later.warning,
        error: earlier.error + later.error,
        latencyCount: earlier.latencyCount + later.latencyCount,
        latencySumMs: earlier.latencySumMs + later.latencySumMs,
        latencyMaxMs: max(earlier.latencyMaxMs, later.latencyMaxMs),
        valueLast: later.valueLast ?? earlier.valueLast,
        valueMin: min(earlier.valueMin, later.valueMin),
        valueMax: max(earlier.valueMax, later.valueMax),
    };
}

/**
 * The open buckets of every monitor at one resolution. A bucket is closed (returned by `add`) when the monitor's
 * next check falls into a later bucket, so closings spread over a check interval instead of all landing on the
 * boundary; `drain` hands over the open ones too (at stop). Memory: one small object per monitor.
 */
export class BucketAccumulator {
    private readonly open = new Map<number, Bucket>();

    constructor(readonly sizeMs: number) {}

    add(s: CheckSample, closed: Bucket[]): void {
        const start = bucketStart(s.t, this.sizeMs);
        let b = this.open.get(s.monitorId);
        if (b && b.bucket !== start) {
            closed.push(b);
            b = undefined;
        }
        if (!b) {
            b = emptyBucket(s.monitorId, start);
            this.open.set(s.monitorId, b);
        }
        addSample(b, s);
    }

    /** Every open bucket, which then starts empty again (an upsert merges the rest of it later). */
    drain(closed: Bucket[]): void {
        for (const b of this.open.values()) closed.push(b);
        this.open.clear();
    }

    forget(monitorId: number): void {
        this.open.delete(monitorId);
    }

    get size(): number {
        return this.open.size;
    }
}
