import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { packBuckets, unpackBuckets } from './packed';
import { rowsOf } from './rows';
import { type Bucket, DAY_MS, FIVE_MINUTES_MS, HOUR_MS, mergeBuckets } from './rollup';

/** One monitor's packed day (history_days) as buckets. */
export interface Day {
    monitorId: number;
    day: number;
    hours: Bucket[];
    /** Null when the 5-minute buckets are past their retention. */
    fiveMinutes: Bucket[] | null;
}

export const dayOf = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
export const SLOT_MS = { hours: HOUR_MS, fiveMinutes: FIVE_MINUTES_MS } as const;

/** bytea as either driver answers it: node-postgres a Buffer, PGlite a Uint8Array, a string if read as text. */
export function bytes(v: unknown): Uint8Array | null {
    if (v === null || v === undefined) return null;
    if (v instanceof Uint8Array) return v;
    if (typeof v === 'string' && v.startsWith('\\x')) return Uint8Array.from(Buffer.from(v.slice(2), 'hex'));
    throw new Error('packed history is not bytea');
}

export const hex = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
const iso = (ms: number) => new Date(ms).toISOString();
/** A Postgres array literal of plain tokens (numbers, ISO times, hex): nothing in them needs quoting. */
const arr = (values: (string | number)[]) => `{${values.join(',')}}`;

export function decodeDay(row: Record<string, unknown>, which: keyof typeof SLOT_MS | 'both'): Day {
    const monitorId = Number(row.monitor_id);
    const day = Number(row.day_ms);
    const hours = which === 'fiveMinutes' ? null : bytes(row.hours);
    const five = which === 'hours' ? null : bytes(row.five_minutes);
    return {
        monitorId,
        day,
        hours: hours ? unpackBuckets(hours, monitorId, day, HOUR_MS) : [],
        fiveMinutes: five ? unpackBuckets(five, monitorId, day, FIVE_MINUTES_MS) : null,
    };
}

/** The packed buckets of one monitor at one resolution from `fromMs` to `toMs`. */
export async function packedBuckets(
    db: Db,
    monitorId: number,
    which: keyof typeof SLOT_MS,
    fromMs: number,
    toMs: number
): Promise<Bucket[]> {
    const column = sql.raw(which === 'hours' ? 'hours' : 'five_minutes');
    const rows = await rowsOf(
        db,
        sql`select monitor_id, extract(epoch from day) * 1000 as day_ms, ${column} from history_days
            where monitor_id = ${monitorId} and day >= ${iso(dayOf(fromMs))} and day < ${iso(toMs)} order by day`
    );
    return rows.flatMap((r) => {
        const d = decodeDay(r, which);
        return (d[which] ?? []).filter((b) => b.bucket >= fromMs && b.bucket < toMs);
    });
}

/** The existing packed days of these (monitor, day) pairs, both resolutions. */
export async function readDays(db: Db, keys: { monitorId: number; day: number }[]): Promise<Day[]> {
    if (keys.length === 0) return [];
    const rows = await rowsOf(
        db,
        sql`select d.monitor_id, extract(epoch from d.day) * 1000 as day_ms, d.hours, d.five_minutes
            from history_days d join unnest(${arr(keys.map((k) => k.monitorId))}::int[],
                ${arr(keys.map((k) => iso(k.day)))}::timestamptz[]) as k(monitor_id, day)
                on d.monitor_id = k.monitor_id and d.day = k.day`
    );
    return rows.map((r) => decodeDay(r, 'both'));
}

/** Buckets merged into one per start time, oldest first. */
export function mergeSlots(buckets: Bucket[]): Bucket[] {
    const bySlot = new Map<number, Bucket>();
    for (const b of buckets) {
        const prev = bySlot.get(b.bucket);
        bySlot.set(b.bucket, prev ? mergeBuckets(prev, b) : b);
    }
    return [...bySlot.values()].sort((a, b) => a.bucket - b.bucket);
}

/** Writes whole days, replacing what a row held: callers merge with readDays first. */
export async function writeDays(db: Db, days: Day[]): Promise<void> {
    if (days.length === 0) return;
    const counts = days.map((d) =>
        d.hours.reduce((c, b) => ({ ok: c.ok + b.ok, warning: c.warning + b.warning, error: c.error + b.error }), {
            ok: 0,
            warning: 0,
            error: 0,
        })
    );
    await db.execute(sql`
        insert into history_days (monitor_id, day, ok, warning, error, hours, five_minutes)
        select v.monitor_id, v.day, v.ok, v.warning, v.error, decode(v.hours, 'hex'), decode(v.five, 'hex')
        from unnest(
            ${arr(days.map((d) => d.monitorId))}::int[], ${arr(days.map((d) => iso(d.day)))}::timestamptz[],
            ${arr(counts.map((c) => c.ok))}::int[], ${arr(counts.map((c) => c.warning))}::int[],
            ${arr(counts.map((c) => c.error))}::int[],
            ${arr(days.map((d) => hex(packBuckets(d.hours, d.day, HOUR_MS))))}::text[],
            ${arr(days.map((d) => (d.fiveMinutes ? hex(packBuckets(d.fiveMinutes, d.day, FIVE_MINUTES_MS)) : 'NULL')))}::text[]
        ) as v(monitor_id, day, ok, warning, error, hours, five)
        where exists (select 1 from monitors m where m.id = v.monitor_id)
        on conflict (monitor_id, day) do update set ok = excluded.ok, warning = excluded.warning,
            error = excluded.error, hours = excluded.hours, five_minutes = excluded.five_minutes`);
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** A rollup row (history_5m, _1h, _1d) as read with its bucket in ms (`bucket_ms`). */
export function bucketOf(r: Record<string, unknown>): Bucket {
    return {
        monitorId: Number(r.monitor_id),
        bucket: Number(r.bucket_ms),
        ok: Number(r.ok),
        warning: Number(r.warning),
        error: Number(r.error),
        latencyCount: Number(r.latency_count),
        latencySumMs: Number(r.latency_sum_ms),
        latencyMaxMs: num(r.latency_max_ms),
        valueLast: num(r.value_last),
        valueMin: num(r.value_min),
        valueMax: num(r.value_max),
    };
}
