import { createHash } from 'node:crypto';
import type { SharedObservations } from './observations';
import { checkFigures, figuresLifeMs } from './shared-figures';
import { setMaxListeners } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { ChainDirectory } from '../chains/directory';
import type { EgressPolicies } from '../clients/egress-policies';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import type { DatabaseHealth } from '../db/outage';
import type { EventBus } from '../events';
import type { ActiveSilences } from '../silences/active';
import { monitorStates } from '../db/schema';
import type { EngineShared } from './check';
import { ReadThread } from './readers';
import type { SourceSeen } from './chain-sources';
import { ChainHalts } from './chain-halt';
import { CHECKS, judgedAcrossMonitors } from './checks';
import { DiskIndex } from './disk-index';
import { HistoryBuffer } from '../history/buffer';
import { packLocationLevels } from '../history/location-levels';
import type { CheckRecord, PersistedState } from './results';
import { ResultWriter } from './results';
import { type JobRunner, type JobSchedule, Scheduler } from './scheduler';
import type { MonitorTarget } from './targets';
import { loadTargets, targetsFingerprint } from './targets';
import { INITIAL_ALERT_STATE } from './transitions';
import { evaluate, judge } from './judge';
import { readTarget, type TargetRead, type TargetReadPorts } from './read-target';
import { weighLocations } from './across-locations';
import { LocationReads } from './location-reads';
import { QUOTA_DEFAULTS } from '../../common/company-quota';
import { UpgradeHolds } from './upgrade-hold';
import { DutyGroups } from './duty-group';

/** What the engine takes of the app (built in server/assembly/background.ts): the store it writes, what a check needs. */
export interface EnginePorts {
    /** Monitors are read from it; health, state, audit, incident and outbox rows are written to it. */
    db: Db;
    dbHealth: DatabaseHealth;
    /** Changes made through the API, which make it reload. */
    events: Pick<EventBus, 'subscribe'>;
    silences: Pick<ActiveSilences, 'coverOf'>;
    egress: Pick<EgressPolicies, 'forCompany'>;
    chains: Pick<ChainDirectory, 'prefixFor'>;
    keys: { secretsAtRest: Uint8Array };
    config: Pick<AppConfig, 'allowPrivateTargets'> & { history: Pick<AppConfig['history'], 'enabled'> };
    /** The wall clock judged readings are stamped with (ms since epoch). */
    clock?: () => number;
}

export interface EngineOptions {
    /**
     * Checks in flight at once; a hanging target holds one slot only until its timeout. Each company may hold at most
     * its own `max_concurrent_checks` of them, and a free slot goes to the company with the fewest in flight.
     */
    concurrency?: number;
    flushIntervalMs?: number;
    /** Full reload from the database even without an event (changes made by another process). */
    reloadIntervalMs?: number;
    /** Spread of the first runs after start, so a restart does not fire every monitor at once. */
    startSpreadMs?: number;
    /** The schedule the checks run on; the in-process `Scheduler` unless the composition root gives another. */
    schedule?: (run: JobRunner, concurrency: number) => JobSchedule;
    /**
     * Other processes check the same monitors (the cluster profile): each check starts from the state row and
     * saves its result at once with a compare-and-set on it (ResultWriter.commit).
     */
    sharedState?: boolean;
    /**
     * The cluster's probe locations (a check confirmed from more than one network): this process reads from `here`, serves that location's probe queue,
     * and asks the other locations a monitor names for their readings. Absent (the embedded profile): one location.
     */
    locations?: { redisUrl: string; here: string };
    /** Where each saved check is told for /metrics in the cluster profile, whichever worker ran it. */
    observations?: Pick<SharedObservations, 'record'>;
}

const MAX_TIMEOUT_MS = 15_000;

/** The latest check of a monitor, kept in memory for the Prometheus page (times in ms since epoch). */
export interface Observation {
    checkedAt: number;
    /** The last check whose verdict was not Error; null until one was. */
    succeededAt: number | null;
    durationMs: number;
    level: 'ok' | 'warning' | 'error';
}

/** Which settings a monitor's memory is kept under: its type and settings, hashed. */
export const memoryKeyOf = (t: Pick<MonitorTarget, 'type' | 'settings'>) =>
    createHash('sha256')
        .update(`${t.type}\n${JSON.stringify(t.settings)}`)
        .digest('base64url')
        .slice(0, 16);

/** The monitor's own interval, but never shorter than its company's minimum (the company's engine quota). */
export const intervalMsOf = (t: MonitorTarget) =>
    Math.max(
        CHECKS[t.type].intervalSeconds(t.settings),
        t.quota?.minIntervalSeconds ?? QUOTA_DEFAULTS.min_interval_seconds
    ) * 1000;
/**
 * What one type's check tells another's across monitors: the upgrade holds (fed by upgradeWatch), which the chain-halt
 * code asks first about each blockCheck (upgrade-hold.ts).
 */
function sharedFacts(): EngineShared {
    const upgradeHolds = new UpgradeHolds();
    return { upgradeHolds, chainHalts: new ChainHalts(upgradeHolds.adjust) };
}

const CHANGE_EVENTS = /^(CONFIGURATION|SERVER|SERVICE|MONITOR|COMPANY)_/;

/**
 * The monitoring engine: keeps one scheduled job per runnable monitor, runs its check, judges the reading,
 * advances the alert state and hands everything to the result writer. API changes reach it through the event bus.
 */
export class Engine {
    private readonly targets = new Map<number, MonitorTarget>();
    private readonly states = new Map<number, PersistedState>();
    private readonly scheduler: JobSchedule;
    private readonly writer: ResultWriter;
    private readonly reads: ReadThread;
    private readonly readPorts: TargetReadPorts;
    private timers: NodeJS.Timeout[] = [];
    private unsubscribe: (() => void) | null = null;
    private reloadTimer: NodeJS.Timeout | null = null;
    private reloading: Promise<void> | null = null;
    private readonly controller = new AbortController();
    readonly disks = new DiskIndex();
    private shared = sharedFacts();
    private dutyGroups = new DutyGroups();
    /** Per configuration, its chain's sources as the latest duty check saw them. */
    private readonly sourcesSeen = new Map<number, SourceSeen[]>();
    private readonly observed = new Map<number, Observation>();
    private started = false;
    private fingerprint = '';
    private readonly now: () => number;
    private readonly places: LocationReads | null = null;

    constructor(
        private readonly ctx: EnginePorts,
        private readonly log: FastifyBaseLogger,
        private readonly opts: EngineOptions = {}
    ) {
        this.now = ctx.clock ?? (() => Date.now());
        const schedule = opts.schedule ?? ((run, concurrency) => new Scheduler(run, concurrency));
        this.scheduler = schedule((id, slot, read) => this.runOnce(id, slot, read), opts.concurrency ?? 256);
        this.reads = new ReadThread({ allowPrivate: ctx.config.allowPrivateTargets }, log);
        this.readPorts = {
            reads: this.reads,
            egress: ctx.egress,
            chains: ctx.chains,
            stopping: this.controller.signal,
        };
        // Every check in flight listens for the engine's stop; hundreds at once are expected, not a leak.
        setMaxListeners(0, this.controller.signal);
        if (opts.locations) this.places = new LocationReads(this.readPorts, opts.locations, log);
        this.writer = new ResultWriter(
            ctx.db,
            log,
            ctx.dbHealth,
            ctx.config.history.enabled ? new HistoryBuffer() : null
        );
    }

    /** True between a completed start and stop; the health endpoint reports it. */
    get running(): boolean {
        return this.started && !this.controller.signal.aborted;
    }

    get stats() {
        return {
            scheduler: this.scheduler.stats,
            writer: this.writer.stats,
            monitors: this.scheduler.size,
            inFlight: this.scheduler.running,
        };
    }

    /** Each scheduled monitor with its latest check (undefined before the first) and whether an incident is open. */
    *monitors(): Generator<{ target: MonitorTarget; observation: Observation | undefined; alerting: boolean }> {
        for (const [id, target] of this.targets) {
            const status = this.states.get(id)?.alert.status;
            yield {
                target,
                observation: this.observed.get(id),
                alerting: status === 'alerting' || status === 'flapping',
            };
        }
    }

    async start(): Promise<void> {
        const reads = this.reads.warm();
        for (const row of await this.ctx.db.select().from(monitorStates)) {
            this.states.set(row.monitorId, row.state as PersistedState);
        }
        this.shared.chainHalts.restore([...this.states.values()].map((s) => s.alert));
        await this.reload(this.opts.startSpreadMs);
        this.dutyGroups.restore(this.targets.values(), (id) => this.states.get(id)?.alert);
        await reads;
        await this.places?.start();
        // Stopped while starting (the console closed during its start): nothing may run after the stop.
        if (this.controller.signal.aborted) return;
        await this.scheduler.start();
        this.started = true;
        this.unsubscribe = this.ctx.events.subscribe((e) => {
            if (CHANGE_EVENTS.test(e.name)) this.scheduleReload();
        });
        this.timers.push(setInterval(() => void this.writer.flush(), this.opts.flushIntervalMs ?? 1000));
        this.timers.push(setInterval(() => void this.reloadIfChanged(), this.opts.reloadIntervalMs ?? 30_000));
        this.log.info(`Monitoring engine started with ${this.scheduler.size} monitors`);
    }

    async stop(): Promise<void> {
        this.unsubscribe?.();
        for (const t of this.timers) clearInterval(t);
        if (this.reloadTimer) clearTimeout(this.reloadTimer);
        this.controller.abort();
        await this.scheduler.stop();
        await this.places?.stop();
        await this.reads.close();
        await this.reloading;
        // A clean stop saves every monitor's memory, so a restart resumes exactly where this run left off.
        await this.writer.flush(true);
    }

    /** Applies database changes shortly after an event; bursts of events cause one reload. */
    private scheduleReload(): void {
        if (this.reloadTimer) return;
        this.reloadTimer = setTimeout(() => {
            this.reloadTimer = null;
            void this.reload(2000);
        }, 250);
    }

    /**
     * The periodic safety net for changes made outside this process (another node on the same PostgreSQL): a full
     * reload only when the cheap fingerprint of the monitored tables moved, since a reload of 10,000 monitors costs
     * about half a second of work.
     */
    private async reloadIfChanged(): Promise<void> {
        try {
            const fingerprint = await targetsFingerprint(this.ctx.db);
            if (fingerprint === this.fingerprint) return;
        } catch (err) {
            if (!this.ctx.dbHealth.failed(err, 'the engine'))
                this.log.warn(`Checking for monitor changes failed: ${(err as Error).message}`);
        }
        this.scheduleReload();
    }

    private async reload(firstDelayMaxMs?: number): Promise<void> {
        if (this.reloading) return this.reloading;
        this.reloading = (async () => {
            try {
                // Taken before the read, so a change made during it shows as a new fingerprint next time.
                this.fingerprint = await targetsFingerprint(this.ctx.db);
                const { targets, invalid } = await loadTargets(this.ctx.db, this.ctx.keys.secretsAtRest);
                const seen = new Set<number>();
                const limits = new Map<number, number>();
                for (const t of targets) {
                    seen.add(t.id);
                    const before = this.targets.get(t.id);
                    if (before && before.key !== t.key) this.forgetMemoryIfSettingsChanged(before, t);
                    this.targets.set(t.id, t);
                    const interval = intervalMsOf(t);
                    const company = t.configuration.companyId;
                    limits.set(company, t.quota?.maxConcurrentChecks ?? QUOTA_DEFAULTS.max_concurrent_checks);
                    this.scheduler.upsert(
                        t.id,
                        interval,
                        this.started ? firstDelayMaxMs : (firstDelayMaxMs ?? interval),
                        company,
                        judgedAcrossMonitors(t.type)
                    );
                }
                this.scheduler.setGroupLimits(limits);
                const watched = new Set(targets.map((t) => t.configuration.id));
                for (const id of this.sourcesSeen.keys()) if (!watched.has(id)) this.sourcesSeen.delete(id);
                for (const id of this.scheduler.ids()) {
                    if (!seen.has(id)) {
                        this.scheduler.remove(id);
                        this.targets.delete(id);
                        this.observed.delete(id);
                        this.writer.forget(id);
                    }
                }
                this.scheduler.loaded?.();
                for (const bad of invalid) this.log.warn(`Monitor ${bad.id} is not run: ${bad.error}`);
            } catch (err) {
                if (!this.ctx.dbHealth.failed(err, 'the engine'))
                    this.log.error({ err }, 'Reloading monitors failed; keeping the current schedule');
            } finally {
                this.reloading = null;
            }
        })();
        return this.reloading;
    }

    /**
     * Starts the facts checks share across monitors (chain halts, upgrade holds, duty groups) afresh from the saved
     * states, as a restart does. In the cluster profile this process runs the checks judged across monitors only while
     * it holds the cluster-wide duties (background.ts): what it knew from an earlier turn is stale by now.
     */
    async freshSharedFacts(): Promise<void> {
        const saved = new Map<number, PersistedState>();
        for (const row of await this.ctx.db.select().from(monitorStates))
            saved.set(row.monitorId, row.state as PersistedState);
        const shared = sharedFacts();
        const dutyGroups = new DutyGroups();
        shared.chainHalts.restore([...saved.values()].map((s) => s.alert));
        dutyGroups.restore(this.targets.values(), (id) => saved.get(id)?.alert);
        this.shared = shared;
        this.dutyGroups = dutyGroups;
    }

    /** What a monitor's check keeps between runs (newer than monitor_states, which is saved at most once a minute). */
    memoryOf(monitorId: number): unknown {
        return this.states.get(monitorId)?.memory;
    }

    /** Each configuration's chain sources as its latest duty check saw them. */
    chainSources(): ReadonlyMap<number, SourceSeen[]> {
        return this.sourcesSeen;
    }

    /** A monitor's whole latest state (memory and the chain source it read through), newer than monitor_states. */
    stateOf(monitorId: number): PersistedState | undefined {
        return this.states.get(monitorId);
    }

    /**
     * Forgets this process's memory of a monitor whose settings changed. In the cluster profile each check starts
     * from the stored state instead, whose `memoryOf` says which settings its memory is of (see runOnce).
     */
    private forgetMemoryIfSettingsChanged(before: MonitorTarget, after: MonitorTarget): void {
        if (before.type === after.type && JSON.stringify(before.settings) === JSON.stringify(after.settings)) return;
        const state = this.states.get(after.id);
        if (state) this.states.set(after.id, { ...state, memory: undefined, locationMemory: undefined });
    }

    /** One check of one monitor; never throws. */
    private async runOnce(id: number, slot?: number, read?: () => void): Promise<void> {
        const target = this.targets.get(id);
        if (!target) return;
        const check = CHECKS[target.type];
        const intervalMs = intervalMsOf(target);
        const timeoutMs = Math.max(2000, Math.min(MAX_TIMEOUT_MS, intervalMs));
        const startedAt = performance.now();
        const plan = this.places?.plan(target) ?? null;
        const across = plan ? await this.places?.readAcross(plan, target, timeoutMs) : null;
        const single = across ? null : await readTarget(this.readPorts, target, timeoutMs);
        read?.();
        if (this.controller.signal.aborted) return;
        let durationMs = performance.now() - startedAt;
        const now = this.now();
        const stored = this.opts.sharedState ? await this.writer.stateOf(id) : undefined;
        const memoryOf = this.opts.sharedState ? memoryKeyOf(target) : undefined;
        // The stored memory was kept under other settings: start it afresh (forgetMemoryIfSettingsChanged, shared).
        const kept =
            stored?.memoryOf !== undefined && stored.memoryOf !== memoryOf
                ? { ...stored, memory: undefined, locationMemory: undefined }
                : stored;
        const prev = kept ?? this.states.get(id) ?? { alert: INITIAL_ALERT_STATE, memory: undefined };
        // Several locations: each reading is evaluated on its own and weighed against the monitor's `confirm`.
        const weighed = across
            ? weighLocations(
                  across,
                  Math.min(target.confirm ?? 1, across.length),
                  (r, memory) =>
                      evaluate({
                          check,
                          target,
                          reading: r.reading,
                          source: r.source,
                          prev: { ...prev, memory },
                          nowMs: now,
                      }),
                  {
                      memory: prev.memory,
                      memories: prev.locationMemory,
                      failing:
                          prev.alert.status === 'alerting' ||
                          (prev.alert.status === 'flapping' && prev.alert.failing === true),
                  },
                  this.places?.cut
              )
            : null;
        if (weighed) this.places?.record(target, weighed.sightings, intervalMs);
        const { reading, source, seen } = weighed?.read ?? (single as TargetRead);
        if (weighed?.ms != null) durationMs = weighed.ms;
        if (seen) this.sourcesSeen.set(target.configuration.id, seen);
        const disks = target.server ? (check.disks?.(reading) ?? null) : null;
        if (disks && target.server) this.disks.record(target.server.id, { filesystems: disks }, new Date(now));
        const cover = this.ctx.silences.coverOf(
            { id, serverId: target.server?.id ?? null, configurationId: target.configuration.id, type: target.type },
            now
        );
        const judged = judge({
            check,
            target,
            reading,
            source,
            prev,
            nowMs: now,
            shared: this.shared,
            dutyGroups: this.dutyGroups,
            cover,
            ...(weighed ? { evaluation: weighed.evaluation } : {}),
        });
        const { blindSince, next } = judged;
        const state: PersistedState = {
            ...(this.opts.sharedState ? { slot: slot ?? now, memoryOf } : {}),
            alert: next.state,
            memory: judged.memory,
            ...(blindSince !== undefined ? { blindSince } : {}),
            ...(source ? { source } : blindSince !== undefined ? {} : prev.source ? { source: prev.source } : {}),
            ...(weighed
                ? {
                      locations: weighed.results.map((r) => ({ ...r, checked_at: new Date(now).toISOString() })),
                      locationMemory: weighed.memories,
                  }
                : {}),
        };
        this.states.set(id, state);
        const failed = judged.verdict.level === 'error';
        const succeededAt = failed ? (this.observed.get(id)?.succeededAt ?? null) : now;
        this.observed.set(id, { checkedAt: now, succeededAt, durationMs, level: judged.verdict.level });
        // A monitor held on purpose (a node stopped at a planned upgrade height) is where it should be: its row says
        // so, as a warning.
        const held = check.heldText?.(this.shared, id) ?? null;
        const record: CheckRecord = {
            target,
            status: judged.verdict.level !== 'error' || held !== null,
            lastError: judged.verdict.level === 'ok' ? null : (held ?? judged.verdict.message ?? 'Unknown problem'),
            checkedAt: new Date(now),
            state,
            transition: next,
            history: {
                sample: {
                    monitorId: id,
                    t: now,
                    level: judged.verdict.level,
                    latencyMs: Math.round(durationMs * 10) / 10,
                    value: check.readingValue?.(reading, judged.memory) ?? null,
                    message: judged.verdict.level === 'ok' ? null : (judged.verdict.message ?? null),
                    source: source?.name ?? null,
                    locations: weighed ? packLocationLevels(weighed.results) : null,
                },
                disk: disks && target.server ? { serverId: target.server.id, t: now, filesystems: disks } : undefined,
            },
        };
        if (!this.opts.sharedState) this.writer.record(record);
        // A result for a slot older than the saved one, or that another process saved meanwhile, is dropped.
        else if (!(await this.writer.commit(record, stored?.slot ?? null))) return;
        this.opts.observations
            ?.record(
                id,
                { checkedAt: now, durationMs, level: judged.verdict.level },
                checkFigures(target, judged.memory, seen, disks, now + figuresLifeMs(intervalMs))
            )
            .catch((err) => this.log.warn(`Recording a check for /metrics failed: ${(err as Error).message}`));
        if (next.change) {
            // What a target does is no fault of the console: a failing target is a warning, a planned hold or a
            // recovery information, each with a `target` field; error is kept for the console's own faults.
            const level = judged.verdict.level === 'ok' || next.expected ? 'info' : 'warn';
            this.log[level](
                {
                    target: {
                        monitor_id: id,
                        monitor: target.name,
                        type: target.type,
                        configuration: target.configuration.name,
                        server: target.server?.name ?? null,
                    },
                },
                `[${target.configuration.name}] ${target.name} (${target.type}): ${next.change}`
            );
        } else {
            this.log.debug(`[${target.configuration.name}] ${target.name}: ${judged.verdict.level}`);
        }
    }
}
