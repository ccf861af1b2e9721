import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
    type Bucket,
    BucketAccumulator,
    type CheckSample,
    DAY_MS,
    DISK_BUCKET_MS,
    FIVE_MINUTES_MS,
    HOUR_MS,
    LEVEL_CODE,
    bucketStart,
    mergeBuckets,
} from './rollup';

export interface DiskSample {
    serverId: number;
    t: number;
    filesystems: { mountpoint: string; usedPercent: number }[];
}

interface DiskRow {
    serverId: number;
    mountpoint: string;
    bucket: number;
    usedPercent: number;
}

/** What one flush writes: every check since the last flush, and the buckets that closed meanwhile. */
export interface HistoryBatch {
    raw: CheckSample[];
    fiveMinute: Bucket[];
    hourly: Bucket[];
    daily: Bucket[];
    disks: DiskRow[];
    /** Every disk reading (bucket = its time), for charts of the last hours. */
    diskSamples: DiskRow[];
}

/** Raw checks kept for retry while the database is down; beyond this the oldest are dropped (rollups keep them). */
const MAX_PENDING_RAW = 100_000;

/**
 * History as the engine produces it, between two flushes of the ResultWriter: raw checks, the 5-minute and hourly
 * buckets (maintained here incrementally, so a rollup costs no read of the raw table), and disk use per mountpoint.
 */
export class HistoryBuffer {
    private raw: CheckSample[] = [];
    private fiveMinute: Bucket[] = [];
    private hourly: Bucket[] = [];
    private daily: Bucket[] = [];
    private disks = new Map<string, DiskRow>();
    private diskSamples: DiskRow[] = [];
    private readonly open5m = new BucketAccumulator(FIVE_MINUTES_MS);
    private readonly open1h = new BucketAccumulator(HOUR_MS);
    private readonly open1d = new BucketAccumulator(DAY_MS);

    record(s: CheckSample, disk?: DiskSample): void {
        this.raw.push(s);
        this.open5m.add(s, this.fiveMinute);
        this.open1h.add(s, this.hourly);
        this.open1d.add(s, this.daily);
        if (disk) {
            const bucket = bucketStart(disk.t, DISK_BUCKET_MS);
            for (const f of disk.filesystems) {
                this.diskSamples.push({
                    serverId: disk.serverId,
                    mountpoint: f.mountpoint,
                    bucket: disk.t,
                    usedPercent: f.usedPercent,
                });
                // The last reading of a bucket wins: one row per mountpoint and 5 minutes.
                this.disks.set(`${disk.serverId}\u0000${f.mountpoint}\u0000${bucket}`, {
                    serverId: disk.serverId,
                    mountpoint: f.mountpoint,
                    bucket,
                    usedPercent: f.usedPercent,
                });
            }
        }
    }

    forget(monitorId: number): void {
        this.open5m.forget(monitorId);
        this.open1h.forget(monitorId);
        this.open1d.forget(monitorId);
    }

    get empty(): boolean {
        return (
            this.raw.length === 0 && this.fiveMinute.length === 0 && this.hourly.length === 0 && this.daily.length === 0
        );
    }

    /** Takes what is due; `everything` (at stop) also closes the open buckets, merged on their next write. */
    take(everything: boolean): HistoryBatch {
        if (everything) {
            this.open5m.drain(this.fiveMinute);
            this.open1h.drain(this.hourly);
            this.open1d.drain(this.daily);
        }
        const batch = {
            raw: this.raw,
            fiveMinute: this.fiveMinute,
            hourly: this.hourly,
            daily: this.daily,
            disks: [...this.disks.values()],
            diskSamples: this.diskSamples,
        };
        this.diskSamples = [];
        this.raw = [];
        this.fiveMinute = [];
        this.hourly = [];
        this.daily = [];
        this.disks = new Map();
        return batch;
    }

    /** Puts a batch whose write failed back in front of what came since. */
    restore(b: HistoryBatch): void {
        this.raw = [...b.raw, ...this.raw].slice(-MAX_PENDING_RAW);
        this.fiveMinute = [...b.fiveMinute, ...this.fiveMinute];
        this.hourly = [...b.hourly, ...this.hourly];
        this.daily = [...b.daily, ...this.daily];
        this.diskSamples = [...b.diskSamples, ...this.diskSamples].slice(-MAX_PENDING_RAW);
        for (const d of b.disks) {
            const key = `${d.serverId}\u0000${d.mountpoint}\u0000${d.bucket}`;
            if (!this.disks.has(key)) this.disks.set(key, d);
        }
    }
}

const iso = (ms: number) => new Date(ms).toISOString();
/** A Postgres array literal parameter; unnest turns a whole batch into one statement with a handful of parameters. */
const arr = (values: unknown[]) => JSON.stringify(values).replace(/^\[/, '{').replace(/\]$/, '}');
/** Control characters become spaces: JSON would escape them as `\n`, which an array literal reads as `n`. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
const oneLine = (s: string | null) => (s === null ? null : s.replace(/[\u0000-\u001f]/g, ' '));

/** Writes a batch inside the caller's transaction: one statement per table, whatever the number of rows. */
export async function writeHistory(db: Db, b: HistoryBatch): Promise<void> {
    if (b.raw.length) await writeRaw(db, b.raw);
    if (b.fiveMinute.length) await writeBuckets(db, 'history_5m', b.fiveMinute);
    if (b.hourly.length) await writeBuckets(db, 'history_1h', b.hourly);
    if (b.daily.length) await writeBuckets(db, 'history_1d', b.daily);
    if (b.disks.length) await writeDisks(db, 'disk_history', 'bucket', b.disks);
    if (b.diskSamples.length) await writeDisks(db, 'disk_samples', 't', b.diskSamples);
}

async function writeRaw(db: Db, rows: CheckSample[]): Promise<void> {
    // Monitors deleted while their check ran are skipped; a second result in the same millisecond is dropped.
    await db.execute(sql`
        insert into check_results (monitor_id, t, level, latency_ms, value, message, source, locations)
        select v.* from unnest(
            ${arr(rows.map((r) => r.monitorId))}::int[], ${arr(rows.map((r) => iso(r.t)))}::timestamptz[],
            ${arr(rows.map((r) => LEVEL_CODE[r.level]))}::smallint[], ${arr(rows.map((r) => r.latencyMs))}::real[],
            ${arr(rows.map((r) => r.value))}::float8[], ${arr(rows.map((r) => oneLine(r.message)))}::text[],
            ${arr(rows.map((r) => r.source ?? null))}::text[], ${arr(rows.map((r) => r.locations ?? null))}::text[]
        ) as v(monitor_id, t, level, latency_ms, value, message, source, locations)
        where exists (select 1 from monitors m where m.id = v.monitor_id)
        on conflict do nothing`);
}

/** Merged by (monitor, bucket) first: an upsert may not touch the same row twice in one statement. */
function merged(rows: Bucket[]): Bucket[] {
    const byKey = new Map<string, Bucket>();
    for (const r of rows) {
        const key = `${r.monitorId}:${r.bucket}`;
        const prev = byKey.get(key);
        byKey.set(key, prev ? mergeBuckets(prev, r) : r);
    }
    return [...byKey.values()];
}

export async function writeBuckets(
    db: Db,
    table: 'history_5m' | 'history_1h' | 'history_1d',
    input: Bucket[]
): Promise<void> {
    const rows = merged(input);
    const t = sql.raw(table);
    await db.execute(sql`
        insert into ${t} (monitor_id, bucket, ok, warning, error, latency_count, latency_sum_ms, latency_max_ms,
            value_last, value_min, value_max)
        select v.* from unnest(
            ${arr(rows.map((r) => r.monitorId))}::int[], ${arr(rows.map((r) => iso(r.bucket)))}::timestamptz[],
            ${arr(rows.map((r) => r.ok))}::int[], ${arr(rows.map((r) => r.warning))}::int[],
            ${arr(rows.map((r) => r.error))}::int[], ${arr(rows.map((r) => r.latencyCount))}::int[],
            ${arr(rows.map((r) => r.latencySumMs))}::float8[], ${arr(rows.map((r) => r.latencyMaxMs))}::real[],
            ${arr(rows.map((r) => r.valueLast))}::float8[], ${arr(rows.map((r) => r.valueMin))}::float8[],
            ${arr(rows.map((r) => r.valueMax))}::float8[]
        ) as v(monitor_id, bucket, ok, warning, error, latency_count, latency_sum_ms, latency_max_ms,
            value_last, value_min, value_max)
        where exists (select 1 from monitors m where m.id = v.monitor_id)
        on conflict (monitor_id, bucket) do update set
            ok = ${t}.ok + excluded.ok,
            warning = ${t}.warning + excluded.warning,
            error = ${t}.error + excluded.error,
            latency_count = ${t}.latency_count + excluded.latency_count,
            latency_sum_ms = ${t}.latency_sum_ms + excluded.latency_sum_ms,
            latency_max_ms = greatest(${t}.latency_max_ms, excluded.latency_max_ms),
            value_last = coalesce(excluded.value_last, ${t}.value_last),
            value_min = least(${t}.value_min, excluded.value_min),
            value_max = greatest(${t}.value_max, excluded.value_max)`);
}

/** The 15-minute buckets (disk_history, by `bucket`) or every reading (disk_samples, by `t`). */
async function writeDisks(
    db: Db,
    table: 'disk_history' | 'disk_samples',
    column: 'bucket' | 't',
    rows: DiskRow[]
): Promise<void> {
    const [t, c] = [sql.raw(table), sql.raw(column)];
    await db.execute(sql`
        insert into ${t} (server_id, mountpoint, ${c}, used_percent)
        select v.* from unnest(
            ${arr(rows.map((r) => r.serverId))}::int[], ${arr(rows.map((r) => oneLine(r.mountpoint)))}::text[],
            ${arr(rows.map((r) => iso(r.bucket)))}::timestamptz[], ${arr(rows.map((r) => r.usedPercent))}::real[]
        ) as v(server_id, mountpoint, at, used_percent)
        where exists (select 1 from servers s where s.id = v.server_id)
        on conflict (server_id, mountpoint, ${c}) do update set used_percent = excluded.used_percent`);
}
