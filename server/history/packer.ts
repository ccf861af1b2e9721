import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { HistoryRetention } from '../config';
import type { Db } from '../db/client';
import type { DatabaseHealth } from '../db/outage';
import { bucketOf, type Day, dayOf, mergeSlots, readDays, writeDays } from './days';
import { packDiskDays } from './disk-days';
import { rowsOf } from './rows';
import { type Bucket, DAY_MS, HOUR_MS } from './rollup';

/** Monitors visited per step, and rows taken per table per step (about: whole days move). */
const IDS_PER_STEP = 50;
const ROWS_PER_STEP = 5000;
const ROLLUP_TABLES = ['history_5m', 'history_1h', 'history_1d'];
/** The pause between steps: short while there is a backlog (an upgraded database), longer between rounds. */
const BUSY_STEP_MS = 250;
const QUIET_STEP_MS = 2000;
const ROUND_PAUSE_MS = 60_000;
/** A day is packed an hour after it ends: the buckets of its last hour are written when the next check lands. */
const CLOSE_DELAY_MS = HOUR_MS;

/**
 * Moves the rollup rows of closed days (history_5m, history_1h, history_1d, a row per bucket) into history_days (a
 * row per monitor and day, buckets packed), a few monitors and at most ROWS_PER_STEP rows per table a step, each
 * step one transaction: a bucket is in one table or the other, never both or neither. The same walk upgrades a
 * database that has months of rows per bucket, in small steps while the engine runs. The 15-minute disk readings
 * (disk_history) move into disk_days the same way, a few servers a step.
 */
export class HistoryPacker {
    private after = 0;
    private serversAfter = 0;
    private timer: NodeJS.Timeout | null = null;
    private running: Promise<unknown> | null = null;
    private stopped = false;
    readonly stats = { moved: 0, steps: 0 };

    constructor(
        private readonly db: Db,
        private readonly retention: HistoryRetention,
        private readonly log: FastifyBaseLogger,
        private readonly health?: DatabaseHealth
    ) {}

    start(): void {
        this.stopped = false;
        this.schedule(ROUND_PAUSE_MS);
    }

    async stop(): Promise<void> {
        this.stopped = true;
        if (this.timer) clearTimeout(this.timer);
        this.timer = null;
        await this.running;
    }

    private schedule(ms: number): void {
        if (this.stopped) return;
        this.timer = setTimeout(() => {
            this.running = this.step()
                .then((moved) =>
                    this.schedule(moved > 0 ? BUSY_STEP_MS : this.after === 0 ? ROUND_PAUSE_MS : QUIET_STEP_MS)
                )
                .finally(() => (this.running = null));
        }, ms);
        this.timer.unref();
    }

    /** Packs the next monitors' closed days. Returns the rollup rows moved. */
    async step(nowMs = Date.now()): Promise<number> {
        try {
            const moved = (await this.packSome(nowMs)) + (await this.packDisks(nowMs));
            this.stats.moved += moved;
            this.stats.steps++;
            return moved;
        } catch (err) {
            if (!this.health?.failed(err, 'history packing'))
                this.log.warn(`Packing history failed: ${(err as Error).message}`);
            return 0;
        }
    }

    private async packSome(nowMs: number): Promise<number> {
        const ids = (
            await rowsOf(
                this.db,
                sql`select id from monitors where id > ${this.after} order by id limit ${IDS_PER_STEP}`
            )
        ).map((r) => Number(r.id));
        if (ids.length === 0) {
            this.after = 0;
            return 0;
        }
        const edge = new Date(dayOf(nowMs - CLOSE_DELAY_MS)).toISOString();
        const fiveKeptFrom = nowMs - this.retention.fiveMinuteDays * DAY_MS;
        const list = sql.raw(ids.join(','));
        // Whole days of every table move together (an answer half-way reads each bucket once): up to the day of the
        // first table's ROWS_PER_STEP-th row, or everything closed when none has that many.
        let cut: { monitorId: number; day: number } | null = null;
        for (const table of ROLLUP_TABLES) {
            const [row] = await rowsOf(
                this.db,
                sql`select monitor_id, extract(epoch from bucket) * 1000 as bucket_ms from ${sql.raw(table)}
                    where monitor_id in (${list}) and bucket < ${edge}
                    order by monitor_id, bucket offset ${ROWS_PER_STEP} limit 1`
            );
            if (!row) continue;
            const key = { monitorId: Number(row.monitor_id), day: dayOf(Number(row.bucket_ms)) };
            if (!cut || key.monitorId < cut.monitorId || (key.monitorId === cut.monitorId && key.day < cut.day))
                cut = key;
        }
        const before = cut
            ? sql`and (monitor_id, bucket) < (${cut.monitorId}, ${new Date(cut.day).toISOString()}::timestamptz)`
            : sql``;
        const moved = await this.db.transaction(async (txn) => {
            const tx = txn as unknown as Db;
            const take = async (table: string) =>
                (
                    await rowsOf(
                        tx,
                        sql`delete from ${sql.raw(table)}
                            where monitor_id in (${list}) and bucket < ${edge} ${before}
                            returning monitor_id, extract(epoch from bucket) * 1000 as bucket_ms, ok, warning, error,
                                latency_count, latency_sum_ms, latency_max_ms, value_last, value_min, value_max`
                    )
                ).map(bucketOf);
            const five = await take('history_5m');
            const hours = await take('history_1h');
            // A day's counts are its hours' sums: the daily rows of packed days only go.
            const daily = await take('history_1d');
            const days = new Map<string, Day>();
            const dayFor = (b: Bucket) => {
                const key = `${b.monitorId}:${dayOf(b.bucket)}`;
                let d = days.get(key);
                if (!d) {
                    d = { monitorId: b.monitorId, day: dayOf(b.bucket), hours: [], fiveMinutes: [] };
                    days.set(key, d);
                }
                return d;
            };
            for (const b of hours) dayFor(b).hours.push(b);
            for (const b of five) if (b.bucket >= fiveKeptFrom) dayFor(b).fiveMinutes?.push(b);
            for (const old of await readDays(tx, [...days.values()])) {
                const d = days.get(`${old.monitorId}:${old.day}`);
                if (!d) continue;
                d.hours = [...old.hours, ...d.hours];
                d.fiveMinutes = [...(old.fiveMinutes ?? []), ...(d.fiveMinutes ?? [])];
            }
            const packed = [...days.values()].map((d) => ({
                ...d,
                hours: mergeSlots(d.hours),
                fiveMinutes: d.fiveMinutes?.length ? mergeSlots(d.fiveMinutes) : null,
            }));
            await writeDays(tx, packed);
            return five.length + hours.length + daily.length;
        });
        if (!cut) this.after = ids[ids.length - 1] ?? 0;
        return moved;
    }

    /** The disk readings of the next servers' closed days, whole days of at most about ROWS_PER_STEP rows. */
    private async packDisks(nowMs: number): Promise<number> {
        const ids = (
            await rowsOf(
                this.db,
                sql`select id from servers where id > ${this.serversAfter} order by id limit ${IDS_PER_STEP}`
            )
        ).map((r) => Number(r.id));
        if (ids.length === 0) {
            this.serversAfter = 0;
            return 0;
        }
        const edge = dayOf(nowMs - CLOSE_DELAY_MS);
        const [row] = await rowsOf(
            this.db,
            sql`select server_id, mountpoint, extract(epoch from bucket) * 1000 as bucket_ms from disk_history
                where server_id in (${sql.raw(ids.join(','))}) and bucket < ${new Date(edge).toISOString()}
                order by server_id, mountpoint, bucket offset ${ROWS_PER_STEP} limit 1`
        );
        const before = row
            ? sql`and (server_id, mountpoint, bucket) < (${Number(row.server_id)}, ${String(row.mountpoint)},
                ${new Date(dayOf(Number(row.bucket_ms))).toISOString()}::timestamptz)`
            : sql``;
        const moved = await this.db.transaction(async (tx) => packDiskDays(tx as unknown as Db, ids, edge, before));
        if (!row) this.serversAfter = ids[ids.length - 1] ?? 0;
        return moved;
    }
}
