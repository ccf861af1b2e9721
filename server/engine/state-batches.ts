import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { CheckRecord, PersistedState } from './results';

/**
 * How long a call waits for others to share its statement: a check is saved this much later at most. At 50 and
 * 100 ms a worker taking 30 checks a second sent a statement for about every second check, each costing it and
 * PostgreSQL more than the rows in it; a check's commit stays well within a second of its slot.
 */
const READ_GATHER_MS = 150;
const WRITE_GATHER_MS = 250;
const MAX_BATCH = 500;

interface Call<In, Out> {
    input: In;
    resolve: (out: Out) => void;
    reject: (err: unknown) => void;
}

/**
 * Calls answered together: the first waits `gatherMs` for others, then one statement answers all of them; calls
 * made while it runs wait for the next. A batch holds each key once, so one monitor's two calls never share one.
 */
class Batches<In, Out> {
    private waiting: Call<In, Out>[] = [];
    private running = false;
    private timer: NodeJS.Timeout | null = null;

    constructor(
        private readonly run: (inputs: In[]) => Promise<Out[]>,
        private readonly keyOf: (input: In) => number,
        private readonly gatherMs: number
    ) {}

    call(input: In): Promise<Out> {
        return new Promise<Out>((resolve, reject) => {
            this.waiting.push({ input, resolve, reject });
            if (!this.running && !this.timer) this.timer = setTimeout(() => void this.drain(), this.gatherMs);
        });
    }

    private async drain(): Promise<void> {
        this.timer = null;
        this.running = true;
        while (this.waiting.length) {
            const batch: Call<In, Out>[] = [];
            const keys = new Set<number>();
            const later: Call<In, Out>[] = [];
            for (const c of this.waiting) {
                const key = this.keyOf(c.input);
                if (batch.length >= MAX_BATCH || keys.has(key)) later.push(c);
                else {
                    keys.add(key);
                    batch.push(c);
                }
            }
            this.waiting = later;
            try {
                const out = await this.run(batch.map((c) => c.input));
                for (const [i, c] of batch.entries()) c.resolve(out[i] as Out);
            } catch (err) {
                for (const c of batch) c.reject(err);
            }
        }
        this.running = false;
    }
}

export interface QuietCommit {
    record: CheckRecord;
    prevSlot: number | null;
}

/**
 * The cluster profile's per-check reads and writes of monitor_states, many monitors to a statement: every check reads
 * its monitor's state before judging and saves its result after, and one statement (one transaction) each per check
 * cost the database several times the check itself. Only results without a transition are written here (a
 * transition's incident and outbox rows take ResultWriter.commit's transaction); each keeps its compare-and-set.
 */
export class StateBatches {
    private readonly reads: Batches<number, PersistedState | undefined>;
    private readonly writes: Batches<QuietCommit, boolean>;

    constructor(private readonly db: Db) {
        this.reads = new Batches(
            (ids) => this.readStates(ids),
            (id) => id,
            READ_GATHER_MS
        );
        this.writes = new Batches(
            (commits) => this.writeQuiet(commits),
            (c) => c.record.target.id,
            WRITE_GATHER_MS
        );
    }

    /** A monitor's saved state. */
    stateOf(monitorId: number): Promise<PersistedState | undefined> {
        return this.reads.call(monitorId);
    }

    /** Saves a result without a transition; false when its compare-and-set found another state (ResultWriter.commit). */
    commit(c: QuietCommit): Promise<boolean> {
        return this.writes.call(c);
    }

    /** By the primary key: `in (select …)` made a hash join that read the whole table when it was small. */
    private async readStates(ids: number[]): Promise<(PersistedState | undefined)[]> {
        const result = (await this.db.execute(sql`
            select monitor_id, state from monitor_states
            where monitor_id = any(array(select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::int))`)) as unknown as {
            rows: { monitor_id: number; state: PersistedState }[];
        };
        const byId = new Map(result.rows.map((r) => [Number(r.monitor_id), r.state]));
        return ids.map((id) => byId.get(id));
    }

    /**
     * One statement for the batch: each state row is replaced only while it still holds the slot its check started
     * from (or, for a first check, holds none) and that slot is older than the new one; the health columns of exactly
     * the monitors saved follow. Answers, per commit, whether it was saved. The rows are found by their primary keys
     * (`= any(array(…))`): joined with the batch, the planner read the whole table for each batch.
     */
    private async writeQuiet(commits: QuietCommit[]): Promise<boolean[]> {
        // In id order, so two batches that meet on rows tend to lock them in one order; should they deadlock all the
        // same, the batch fails and ResultWriter.commit saves each of its results alone.
        const rows = commits
            .map(({ record: r, prevSlot }) => ({
                id: r.target.id,
                prev: prevSlot,
                slot: r.state.slot ?? 0,
                state: r.state,
                status: r.status,
                last_error: r.lastError,
                last_check: r.checkedAt.toISOString(),
            }))
            .sort((a, b) => a.id - b.id);
        const result = (await this.db.execute(sql`
            with v as (
                select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id int, prev bigint, slot bigint,
                    state jsonb, status boolean, last_error text, last_check timestamptz)
            ), replaced as (
                update monitor_states as s set state = v.state, updated_at = now()
                from v
                where s.monitor_id = any(array(select id from v where v.prev is not null)) and s.monitor_id = v.id
                    and (s.state->>'slot')::bigint = v.prev and v.prev < v.slot
                returning s.monitor_id
            ), first as (
                insert into monitor_states (monitor_id, state, updated_at)
                select v.id, v.state, now() from v
                where v.prev is null and exists (select 1 from monitors where monitors.id = v.id)
                order by v.id
                on conflict (monitor_id) do update set state = excluded.state, updated_at = now()
                    where monitor_states.state->'slot' is null
                returning monitor_id
            ), saved as (
                select monitor_id from replaced union all select monitor_id from first
            ), health as (
                update monitors as m set status = v.status, last_error = v.last_error, last_check = v.last_check
                from v
                where m.id = any(array(select monitor_id from saved)) and m.id = v.id
                returning m.id
            )
            select monitor_id from saved`)) as unknown as { rows: { monitor_id: number }[] };
        const saved = new Set(result.rows.map((r) => Number(r.monitor_id)));
        return commits.map((c) => saved.has(c.record.target.id));
    }
}
