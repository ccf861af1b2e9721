import type { LocationResult } from '../../common/locations';
import type { SourceUsed } from './chain-sources';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { DatabaseHealth } from '../db/outage';
import { auditEntries, outbox } from '../db/schema';
import { routes } from '../notify/routing';
import { toRecord } from '../notify/record';
import { holdRows } from '../notify/server-hold';
import { CHECKS } from './checks';
import type { MonitorType } from '../../common/monitor-types';
import { linksOf, outboxRows } from '../incidents/queue';
import { recordIncidents } from '../incidents/record';
import { type HistoryBuffer, writeHistory } from '../history/buffer';
import type { CheckSample } from '../history/rollup';
import type { DiskSample } from '../history/buffer';
import type { MonitorTarget } from './targets';
import type { AlertState, Notification, Transition } from './transitions';
import { StateBatches } from './state-batches';

/** What the engine remembers of a monitor between checks; stored as JSON in monitor_states. */
export interface PersistedState {
    alert: AlertState;
    memory: unknown;
    /** Since when a duty monitor has seen no fresh source of its chain (absent while it sees one). */
    blindSince?: number;
    /** The source a duty monitor's last reading came through. */
    source?: SourceUsed;
    /** The scheduled time of the check this state came from (the cluster profile; see ResultWriter.commit). */
    slot?: number;
    /** Each location's result of the last check, when several locations checked it. */
    locations?: LocationResult[];
    /** Each location's own memory of the check, when several locations check it (across-locations.ts). */
    locationMemory?: Record<string, unknown>;
    /**
     * The cluster profile: which settings the memory was kept under (memoryKeyOf). A worker that finds other
     * settings now starts the memory afresh, as the embedded engine does on an edit, whichever process saw the edit.
     */
    memoryOf?: string;
}

export interface CheckRecord {
    target: MonitorTarget;
    status: boolean;
    lastError: string | null;
    checkedAt: Date;
    state: PersistedState;
    transition: Transition;
    /** The check as history keeps it (level, latency, the type's reading), and a disk check's mountpoints. */
    history?: { sample: CheckSample; disk?: DiskSample };
}

const BATCH = 400;
/**
 * A monitor's memory (counters, baselines) is saved at most this often unless its alert state changed, which is
 * saved at once: after a crash the memory may be this old, but an open incident is never forgotten or re-sent.
 */
const MEMORY_SAVE_MS = 60_000;

/**
 * Buffers check results and writes them in one transaction per flush: monitor health, engine state, audit entries
 * and outbox rows together, so an alert is queued exactly when the state that caused it is saved. When the
 * database fails, the buffer is kept (latest result per monitor; every transition) and retried on the next flush.
 */
export class ResultWriter {
    private latest = new Map<number, CheckRecord>();
    private transitions: CheckRecord[] = [];
    /** Monitors whose alert state changed since their state was last saved. */
    private readonly alertChanged = new Set<number>();
    private readonly savedAt = new Map<number, number>();
    /** The newest record of each monitor whose state has not been saved yet. */
    private readonly unsaved = new Map<number, CheckRecord>();
    private flushing: Promise<void> | null = null;
    private failing = false;
    private readonly batches: StateBatches;
    readonly stats = { rows: 0, flushes: 0, failures: 0 };

    constructor(
        private readonly db: Db,
        private readonly log: FastifyBaseLogger,
        /** Told of each flush's outcome; a database outage is logged there, once, rather than here. */
        private readonly health?: DatabaseHealth,
        /** Check history, written in the same transaction as the results; null keeps none. */
        private readonly history: HistoryBuffer | null = null
    ) {
        this.batches = new StateBatches(db);
    }

    record(r: CheckRecord): void {
        this.latest.set(r.target.id, r);
        if (this.history && r.history) this.history.record(r.history.sample, r.history.disk);
        if (r.transition.notification || r.transition.held || r.transition.change) {
            this.transitions.push(r);
            this.alertChanged.add(r.target.id);
        }
    }

    /** A monitor's saved state (the cluster profile reads it before each check, many monitors to a query). */
    stateOf(monitorId: number): Promise<PersistedState | undefined> {
        return this.batches.stateOf(monitorId);
    }

    /**
     * Saves one result at once, for the cluster profile where several processes check the same monitor: a
     * compare-and-set on its state row (still the state of `prevSlot` the check started from, and older than this
     * one), with its health, transition, incident and outbox rows in the same transaction. Answers false, writing
     * nothing, when another process saved a state meanwhile or a newer slot is saved: a late or replayed result.
     * A result without a transition shares one statement with other monitors' (StateBatches), under the same
     * compare-and-set; should that statement fail, each of its results is tried on its own.
     */
    async commit(r: CheckRecord, prevSlot: number | null): Promise<boolean> {
        if (!(r.transition.notification || r.transition.held || r.transition.change)) {
            const saved = await this.batches.commit({ record: r, prevSlot }).catch(() => null);
            if (saved !== null) {
                if (saved && this.history && r.history) this.history.record(r.history.sample, r.history.disk);
                this.health?.succeeded('write');
                return saved;
            }
        }
        return this.commitAlone(r, prevSlot);
    }

    private async commitAlone(r: CheckRecord, prevSlot: number | null): Promise<boolean> {
        const state = JSON.stringify(r.state);
        const slot = r.state.slot ?? 0;
        try {
            const saved = await this.db.transaction(async (tx) => {
                const result = await tx.execute(
                    prevSlot === null
                        ? sql`insert into monitor_states (monitor_id, state, updated_at)
                              select ${r.target.id}, ${state}::jsonb, now()
                              where exists (select 1 from monitors where id = ${r.target.id})
                              on conflict (monitor_id) do update set state = excluded.state, updated_at = now()
                              where monitor_states.state->'slot' is null
                              returning monitor_id`
                        : sql`update monitor_states set state = ${state}::jsonb, updated_at = now()
                              where monitor_id = ${r.target.id} and (state->>'slot')::bigint = ${prevSlot}
                                  and ${prevSlot} < ${slot}
                              returning monitor_id`
                );
                if ((result as unknown as { rows: unknown[] }).rows.length === 0) return false;
                await writeHealth(tx as unknown as Db, [r]);
                await writeTransitions(
                    tx as unknown as Db,
                    r.transition.notification || r.transition.held || r.transition.change ? [r] : []
                );
                return true;
            });
            if (saved && this.history && r.history) this.history.record(r.history.sample, r.history.disk);
            this.health?.succeeded('write');
            return saved;
        } catch (err) {
            if (!this.health?.failed(err, 'the engine saving results'))
                this.log.error({ err }, 'Saving a check result failed');
            return false;
        }
    }

    /** Drops what is kept for a monitor that is no longer run. */
    forget(monitorId: number): void {
        this.history?.forget(monitorId);
        this.unsaved.delete(monitorId);
        this.savedAt.delete(monitorId);
        this.alertChanged.delete(monitorId);
    }

    get pending(): number {
        return this.latest.size;
    }

    /** Writes what is buffered; concurrent calls share one flush. `everything` also saves all pending memory. */
    flush(everything = false): Promise<void> {
        if (!this.flushing) {
            this.flushing = this.write(everything).finally(() => {
                this.flushing = null;
            });
        }
        return this.flushing;
    }

    private async write(everything: boolean): Promise<void> {
        const historyDue = this.history ? !this.history.empty || everything : false;
        if (
            this.latest.size === 0 &&
            this.transitions.length === 0 &&
            !historyDue &&
            !(everything && this.unsaved.size)
        )
            return;
        const history = this.history?.take(everything) ?? null;
        const batch = [...this.latest.values()];
        const transitions = this.transitions;
        this.latest = new Map();
        this.transitions = [];
        const now = Date.now();
        // Taken now: an alert change recorded while this flush is in flight is saved by the next one.
        const changed = new Set(this.alertChanged);
        this.alertChanged.clear();
        for (const r of batch) this.unsaved.set(r.target.id, r);
        const states = [...this.unsaved.values()].filter(
            (r) =>
                everything || changed.has(r.target.id) || now - (this.savedAt.get(r.target.id) ?? 0) >= MEMORY_SAVE_MS
        );
        try {
            await this.db.transaction(async (tx) => {
                for (let i = 0; i < batch.length; i += BATCH)
                    await writeHealth(tx as unknown as Db, batch.slice(i, i + BATCH));
                for (let i = 0; i < states.length; i += BATCH)
                    await writeStates(tx as unknown as Db, states.slice(i, i + BATCH));
                await writeTransitions(tx as unknown as Db, transitions);
                if (history) await writeHistory(tx as unknown as Db, history);
            });
            for (const r of states) {
                this.unsaved.delete(r.target.id);
                this.savedAt.set(r.target.id, now);
            }
            this.stats.rows += batch.length;
            this.stats.flushes++;
            this.health?.succeeded('write');
            if (this.failing) this.log.info('Engine results are being saved again');
            this.failing = false;
        } catch (err) {
            this.stats.failures++;
            for (const id of changed) this.alertChanged.add(id);
            const outage = this.health?.failed(err, 'the engine saving results');
            if (!this.failing && !outage) {
                this.log.error({ err }, 'Saving engine results failed; keeping them to retry');
                this.failing = true;
            }
            // Newer results recorded meanwhile win; transitions are all kept, in order.
            for (const r of batch) if (!this.latest.has(r.target.id)) this.latest.set(r.target.id, r);
            this.transitions = [...transitions, ...this.transitions];
            if (history) this.history?.restore(history);
        }
    }
}

async function writeHealth(db: Db, rows: CheckRecord[]): Promise<void> {
    if (rows.length === 0) return;
    const health = rows.map((r) => ({
        id: r.target.id,
        status: r.status,
        last_error: r.lastError,
        last_check: r.checkedAt.toISOString(),
    }));
    // One jsonb parameter rather than a VALUES list of 4 per row: one short text to parse and plan, 30 → 5 ms for
    // 225 rows on PGlite, which holds every other query meanwhile.
    await db.execute(sql`
        update monitors as m set status = v.status, last_error = v.last_error, last_check = v.last_check
        from jsonb_to_recordset(${JSON.stringify(health)}::jsonb)
            as v(id int, status boolean, last_error text, last_check timestamptz)
        where m.id = v.id`);
}

async function writeStates(db: Db, rows: CheckRecord[]): Promise<void> {
    if (rows.length === 0) return;
    const states = rows.map((r) => ({ id: r.target.id, state: r.state }));
    // Monitors deleted while their check ran are skipped rather than failing the whole batch.
    await db.execute(sql`
        insert into monitor_states (monitor_id, state, updated_at)
        select v.id, v.state, now() from jsonb_to_recordset(${JSON.stringify(states)}::jsonb) as v(id int, state jsonb)
        where exists (select 1 from monitors where monitors.id = v.id)
        on conflict (monitor_id) do update set state = excluded.state, updated_at = excluded.updated_at`);
}

async function writeTransitions(db: Db, records: CheckRecord[]): Promise<void> {
    if (records.length === 0) return;
    const audits = records.flatMap((r) =>
        r.transition.change
            ? [
                  {
                      companyId: r.target.configuration.companyId,
                      configurationId: r.target.configuration.id,
                      configurationName: r.target.configuration.name,
                      serverId: r.target.server?.id ?? null,
                      serverName: r.target.server?.name ?? null,
                      monitorId: r.target.id,
                      monitorName: r.target.name,
                      message: `Monitor "${r.target.name}": ${r.transition.change}`,
                      createdAt: r.checkedAt,
                  },
              ]
            : []
    );
    if (audits.length) await db.insert(auditEntries).values(audits);
    const notifying = records.filter((r) => r.transition.notification || r.transition.held);
    if (notifying.length === 0) return;
    const configIds = [...new Set(notifying.map((r) => r.target.configuration.id))];
    const links = await linksOf(db, configIds);
    const build = (r: CheckRecord, n: Notification) => {
        const at = r.checkedAt.getTime();
        return { r, n, at, record: toRecord(r.target, n, at) };
    };
    const built = notifying.flatMap((r) => (r.transition.notification ? [build(r, r.transition.notification)] : []));
    const held = notifying.flatMap((r) => (r.transition.held ? [build(r, r.transition.held)] : []));
    // Incidents (server/incidents): opened, added to and closed with these rows (and with what a silence held
    // back); says which links each may go to.
    const gate = await recordIncidents(
        db,
        [...built, ...held].map((b) => ({
            target: b.r.target,
            notification: b.n,
            record: b.record,
            at: b.r.checkedAt,
            heldUntil: b.n === b.r.transition.held ? b.r.transition.heldUntil : undefined,
        }))
    );
    const queued = built.map(({ r, n, record }) => ({
        record,
        rows: outboxRows(
            record,
            links.filter((l) => l.configurationId === r.target.configuration.id && routes(l, record) && gate(n, l))
        ),
    }));
    // A whole server down is one message: alerts of a monitor with siblings wait briefly in the outbox.
    const rows = await holdRows(
        db,
        queued.filter((q) => q.rows.length > 0),
        intervalOf
    );
    if (rows.length) await db.insert(outbox).values(rows);
}

/** A stored monitor's check interval (ms), for how long its siblings' alerts wait for it (server-hold.ts). */
function intervalOf(type: string, configurationObject: string): number {
    const check = CHECKS[type as MonitorType] as (typeof CHECKS)[MonitorType] | undefined;
    try {
        return (check?.intervalSeconds(JSON.parse(configurationObject) as Record<string, unknown>) ?? 60) * 1000;
    } catch {
        return 60_000;
    }
}
