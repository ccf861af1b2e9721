import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { HistoryRetention } from '../config';
import type { Db } from '../db/client';
import type { DatabaseHealth } from '../db/outage';
import { dayOf } from './days';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Monitors (and servers) visited per step, and rows deleted per table per step at most. */
const IDS_PER_STEP = 250;
const ROWS_PER_STEP = 5000;
const STEP_MS = 5000;
/** Rollups expire by the day at most: they, and the sweep of deleted monitors, are visited every 10th round only. */
const ROLLUP_EVERY_ROUNDS = 10;

interface Cursor {
    /** The last id visited; 0 starts a new round. */
    after: number;
    /** Set when a table still had rows due for the current ids: the next step stays on them. */
    again: boolean;
}

/**
 * Deletes history past its retention continuously, in small steps: every STEP_MS a few hundred monitors, each
 * delete an index range (monitor, time) of at most ROWS_PER_STEP rows, so no step holds the database for long.
 * Rows of deleted monitors (history has no foreign key, so deleting a monitor stays instant) go in the same walk:
 * a sweep of ids that no longer exist ends every 10th round.
 */
export class HistoryPruner {
    private readonly monitorsCursor: Cursor = { after: 0, again: false };
    private readonly serversCursor: Cursor = { after: 0, again: false };
    private round = 0;
    private timer: NodeJS.Timeout | null = null;
    private running: Promise<unknown> | null = null;
    readonly stats = { deleted: 0, steps: 0 };

    constructor(
        private readonly db: Db,
        private readonly retention: HistoryRetention,
        private readonly log: FastifyBaseLogger,
        private readonly health?: DatabaseHealth
    ) {}

    start(): void {
        this.timer = setInterval(() => {
            if (!this.running) this.running = this.step().finally(() => (this.running = null));
        }, STEP_MS);
        this.timer.unref();
    }

    async stop(): Promise<void> {
        if (this.timer) clearInterval(this.timer);
        this.timer = null;
        await this.running;
    }

    /** One step: the next monitors' and servers' expired rows. Returns the rows deleted (or emptied, packed days). */
    async step(nowMs = Date.now()): Promise<number> {
        try {
            const deleted = (await this.monitorsStep(nowMs)) + (await this.serversStep(nowMs));
            this.stats.deleted += deleted;
            this.stats.steps++;
            return deleted;
        } catch (err) {
            if (!this.health?.failed(err, 'history pruning'))
                this.log.warn(`Pruning history failed: ${(err as Error).message}`);
            return 0;
        }
    }

    private async nextIds(table: 'monitors' | 'servers', c: Cursor): Promise<number[] | null> {
        const rows = await this.rows(
            sql`select id from ${sql.raw(table)} where id > ${c.after} order by id limit ${IDS_PER_STEP}`
        );
        const ids = rows.map((r) => Number(r.id));
        return ids.length ? ids : null;
    }

    private async monitorsStep(nowMs: number): Promise<number> {
        const c = this.monitorsCursor;
        const ids = await this.nextIds('monitors', c);
        const full = this.round % ROLLUP_EVERY_ROUNDS === 0;
        if (!ids) {
            c.after = 0;
            this.round++;
            return full ? this.sweepDeletedMonitors() : 0;
        }
        const list = sql.raw(ids.join(','));
        const iso = (ms: number) => new Date(ms).toISOString();
        if (!full) {
            const n = await this.deleteSome(
                'check_results',
                sql`monitor_id in (${list}) and t < ${iso(nowMs - this.retention.rawHours * HOUR_MS)}`
            );
            c.again = n >= ROWS_PER_STEP;
            if (!c.again) c.after = ids[ids.length - 1] ?? 0;
            return n;
        }
        const counts = [
            await this.deleteSome(
                'check_results',
                sql`monitor_id in (${list}) and t < ${iso(nowMs - this.retention.rawHours * HOUR_MS)}`
            ),
            await this.deleteSome(
                'history_5m',
                sql`monitor_id in (${list}) and bucket < ${iso(nowMs - this.retention.fiveMinuteDays * DAY_MS)}`
            ),
            await this.deleteSome(
                'history_1h',
                sql`monitor_id in (${list}) and bucket < ${iso(nowMs - this.retention.hourlyDays * DAY_MS)}`
            ),
            await this.deleteSome(
                'history_1d',
                sql`monitor_id in (${list}) and bucket < ${iso(nowMs - this.retention.hourlyDays * DAY_MS)}`
            ),
            await this.deleteSome(
                'history_days',
                sql`monitor_id in (${list}) and day < ${iso(dayOf(nowMs - this.retention.hourlyDays * DAY_MS))}`
            ),
            await this.dropFiveMinutes(list, dayOf(nowMs - this.retention.fiveMinuteDays * DAY_MS)),
        ];
        c.again = counts.some((n) => n >= ROWS_PER_STEP);
        if (!c.again) c.after = ids[ids.length - 1] ?? 0;
        return counts.reduce((a, b) => a + b, 0);
    }

    /** Disk use is shown as long as the 5-minute rollups; every reading as long as raw checks. */
    private async serversStep(nowMs: number): Promise<number> {
        const c = this.serversCursor;
        const ids = await this.nextIds('servers', c);
        if (!ids) {
            c.after = 0;
            return 0;
        }
        const cutoff = new Date(nowMs - this.retention.fiveMinuteDays * DAY_MS).toISOString();
        const list = sql.raw(ids.join(','));
        const rawCutoff = new Date(nowMs - this.retention.rawHours * HOUR_MS).toISOString();
        const n =
            (await this.deleteSome('disk_history', sql`server_id in (${list}) and bucket < ${cutoff}`)) +
            (await this.deleteSome('disk_samples', sql`server_id in (${list}) and t < ${rawCutoff}`)) +
            (await this.deleteSome(
                'disk_days',
                sql`server_id in (${list}) and day < ${new Date(dayOf(nowMs - this.retention.fiveMinuteDays * DAY_MS)).toISOString()}`
            ));
        c.again = n >= ROWS_PER_STEP;
        if (!c.again) c.after = ids[ids.length - 1] ?? 0;
        return n;
    }

    /**
     * Rows of monitors that no longer exist: their ids found by skipping through each table's primary key
     * (one index probe per distinct id), then deleted a batch at a time.
     */
    private async sweepDeletedMonitors(): Promise<number> {
        let deleted = 0;
        for (const table of ['check_results', 'history_5m', 'history_1h', 'history_1d', 'history_days']) {
            const t = sql.raw(table);
            const gone = await this.rows(sql`
                with recursive ids(id) as (
                    (select monitor_id from ${t} order by monitor_id limit 1)
                    union all
                    select (select monitor_id from ${t} where monitor_id > ids.id order by monitor_id limit 1)
                    from ids where ids.id is not null
                )
                select id from ids where id is not null and not exists (select 1 from monitors m where m.id = ids.id)
                limit 50`);
            if (gone.length === 0) continue;
            const list = sql.raw(gone.map((r) => Number(r.id)).join(','));
            deleted += await this.deleteSome(table, sql`monitor_id in (${list})`);
        }
        return deleted;
    }

    /**
     * A packed day keeps its hours as long as the hourly rollups and its 5-minute buckets as long as those: the
     * 5-minute part of the days whose whole span is past retention is cleared, ROWS_PER_STEP rows at a time.
     */
    private async dropFiveMinutes(list: SQL, beforeDay: number): Promise<number> {
        const rows = await this.rows(sql`
            with cleared as (
                update history_days set five_minutes = null where ctid = any(array(
                    select ctid from history_days where monitor_id in (${list})
                        and day < ${new Date(beforeDay).toISOString()} and five_minutes is not null
                    limit ${ROWS_PER_STEP}))
                returning 1
            )
            select count(*) as n from cleared`);
        return Number(rows[0]?.n ?? 0);
    }

    private async deleteSome(table: string, where: SQL): Promise<number> {
        const t = sql.raw(table);
        const rows = await this.rows(sql`
            with gone as (
                delete from ${t} where ctid = any(array(select ctid from ${t} where ${where} limit ${ROWS_PER_STEP}))
                returning 1
            )
            select count(*) as n from gone`);
        return Number(rows[0]?.n ?? 0);
    }

    private async rows(query: SQL): Promise<Record<string, unknown>[]> {
        return ((await this.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
    }
}
