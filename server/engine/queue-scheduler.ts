import type { FastifyBaseLogger } from 'fastify';
import { DelayedError, type Job, Queue, Worker } from 'bullmq';
import { redisConnection } from '../db/redis';
import type { CompanySlots } from './company-slots';
import type { JobRunner, JobSchedule, SchedulerStats } from './scheduler';

/** The BullMQ queue of checks: one job scheduler per enabled monitor, keyed by its id. */
export const CHECK_QUEUE = 'checks';
/** The queue of the checks judged across monitors (checks/index.ts `judgedAcrossMonitors`), which one worker runs. */
export const CHAIN_QUEUE = 'checks-chain';

/**
 * A check job's lock: renewed every half of it while the check runs (a check lasts at most 15 s), so only a dead
 * worker loses it. With the sweep every 10 s, a killed worker's job is failed within 30 s; the monitor's next run
 * was queued before that job started, so the kill costs it one check at most.
 */
const LOCK_MS = 20_000;
const STALLED_SWEEP_MS = 10_000;
/**
 * Redis is compared with the monitors this often besides after each reload (a Redis that lost its data): by the
 * schedulers' ids, one read, and every FULL_EVERY-th time by their intervals too, which takes a read per scheduler.
 */
const RECONCILE_MS = 30_000;
const FULL_EVERY = 10;
const LAG_SAMPLES = 50_000;
/** A check whose company has no slot free is tried again after this (plus up to as much again, spread). */
const SLOT_RETRY_MS = 250;
/** The longest a check reads (the engine's timeout is at most 15 s), with its commit after. */
const CHECK_SPAN_MS = 15_000;

/**
 * The time a scheduler's job was due. BullMQ names each iteration `repeat:<scheduler>:<due ms>`; its options are
 * copied from the iteration before, so `opts.prevMillis` (and `timestamp`, when it was queued) tell the previous
 * slot, one interval early; a wait for a group slot (moveToDelayed) changes its delay but not its name.
 */
export function slotOf(job: Pick<Job, 'id' | 'timestamp'>): number {
    const named = /^repeat:.+:(\d+)$/.exec(job.id ?? '');
    return named ? Number(named[1]) : job.timestamp;
}

interface CheckJob {
    monitorId: number;
}

export interface QueueSchedulerOptions {
    /** `redis://host:port/db`. */
    redisUrl: string;
    log: FastifyBaseLogger;
    /** Each company's checks in flight across the cluster, held to its cap. */
    slots: CompanySlots;
}

/**
 * The cluster's schedule, on BullMQ job schedulers: every worker process runs the checks BullMQ hands it, and
 * keeps the job schedulers equal to the monitors its engine loaded (reconciled after each reload: one scheduler per
 * monitor with its interval, none for anything else). Every worker reconciles the same database rows and
 * upserting a scheduler is idempotent, so workers agree without electing one; a worker with a stale view is
 * corrected by the next reconcile of any worker. BullMQ queues a monitor's next run before the current one starts,
 * so a dead worker delays only the job it held.
 *
 * Group caps (a company's `max_concurrent_checks`) hold across the cluster: a check takes one of its company's
 * slots in Redis (company-slots.ts) before it runs. One that finds none free goes back to BullMQ's delayed set for
 * a moment, so it holds no worker slot while it waits and another company's checks go on; one that would wait past
 * its monitor's next run is skipped, as the in-process Scheduler skips a run whose previous one is still busy.
 *
 * The checks judged across monitors (a chain's heights pooled to tell a halted chain from a stuck node, upgrade
 * holds, one signing alert per validator) need every check of a chain in one engine's memory. Their schedulers are
 * on a second queue, CHAIN_QUEUE, which only the holder of the cluster-wide duties' lock consumes (startChainChecks,
 * from background.ts); a new holder starts those facts afresh, as a restart does. The trade-off: those checks get
 * one worker's capacity, not the cluster's. A monitor's scheduler is in exactly one of the two queues.
 */
export class QueueScheduler implements JobSchedule {
    private readonly queue: Queue<CheckJob>;
    private readonly chainQueue: Queue<CheckJob>;
    private worker: Worker<CheckJob> | null = null;
    /** Consumes CHAIN_QUEUE while this process holds the cluster-wide duties. */
    private chainWorker: Worker<CheckJob> | null = null;
    /**
     * Monitor id → its interval, how far its first run may be put off (spread, as the in-process Scheduler does) and
     * whether it is judged across monitors (on CHAIN_QUEUE).
     */
    private readonly wanted = new Map<number, { every: number; firstDelayMaxMs: number; chain: boolean }>();
    /** The group (company) of each monitor, and each group's cap on checks in flight. */
    private readonly groups = new Map<number, number>();
    private limits = new Map<number, number>();
    /**
     * Per group, the most checks its monitors can have in flight at once: a monitor's runs start an interval apart and
     * each ends within CHECK_SPAN_MS. A group whose cap is at least that never reaches it, so its checks take no slot.
     */
    private reach = new Map<number, number>();
    private syncing: Promise<void> | null = null;
    private again = false;
    /** Whether the next reconcile compares intervals too (after a reload, and every FULL_EVERY-th period). */
    private full = true;
    private periods = 0;
    private started = false;
    /** Whether `wanted` holds a whole load of the monitors; before that nothing may be removed from Redis. */
    private complete = false;
    private timer: NodeJS.Timeout | null = null;
    private inFlight = 0;
    readonly stats: SchedulerStats = { started: 0, skipped: 0, lags: [] };

    constructor(
        private readonly run: JobRunner,
        private readonly concurrency: number,
        private readonly opts: QueueSchedulerOptions
    ) {
        this.queue = new Queue<CheckJob>(CHECK_QUEUE, { connection: redisConnection(opts.redisUrl) });
        this.queue.on('error', (err) => opts.log.warn(`Check queue: ${err.message}`));
        this.chainQueue = new Queue<CheckJob>(CHAIN_QUEUE, { connection: redisConnection(opts.redisUrl) });
        this.chainQueue.on('error', (err) => opts.log.warn(`Chain check queue: ${err.message}`));
    }

    get size(): number {
        return this.wanted.size;
    }

    get running(): number {
        return this.inFlight;
    }

    setGroupLimits(limits: Map<number, number>): void {
        this.limits = new Map(limits);
    }

    upsert(id: number, intervalMs: number, firstDelayMaxMs = intervalMs, group?: number, acrossMonitors = false): void {
        const known = this.wanted.get(id);
        if (known?.every !== intervalMs || known.chain !== acrossMonitors)
            this.wanted.set(id, { every: intervalMs, firstDelayMaxMs, chain: acrossMonitors });
        if (group === undefined) this.groups.delete(id);
        else this.groups.set(id, group);
    }

    remove(id: number): void {
        this.wanted.delete(id);
        this.groups.delete(id);
    }

    loaded(): void {
        this.complete = true;
        this.full = true;
        const reach = new Map<number, number>();
        for (const [id, group] of this.groups) {
            const every = this.wanted.get(id)?.every;
            if (every) reach.set(group, (reach.get(group) ?? 0) + Math.ceil(CHECK_SPAN_MS / every) + 1);
        }
        this.reach = reach;
        this.reconcileSoon();
    }

    ids(): number[] {
        return [...this.wanted.keys()];
    }

    async start(): Promise<void> {
        this.started = true;
        if (this.complete) await this.reconcile();
        this.timer = setInterval(() => {
            if (++this.periods % FULL_EVERY === 0) this.full = true;
            this.reconcileSoon();
        }, RECONCILE_MS);
        this.worker = this.consume(CHECK_QUEUE, false);
    }

    /** This process holds the cluster-wide duties: it runs the checks judged across monitors too. */
    startChainChecks(): void {
        if (!this.started || this.chainWorker) return;
        this.chainWorker = this.consume(CHAIN_QUEUE, true);
    }

    /** This process no longer holds the duties: it finishes its chain checks in flight and takes no more. */
    async stopChainChecks(): Promise<void> {
        const worker = this.chainWorker;
        this.chainWorker = null;
        await worker?.close();
    }

    async stop(): Promise<void> {
        this.started = false;
        if (this.timer) clearInterval(this.timer);
        await this.worker?.close();
        await this.stopChainChecks();
        await this.syncing;
        await this.queue.close();
        await this.chainQueue.close();
    }

    /** The job schedulers in Redis (of the main queue, or of CHAIN_QUEUE), by monitor id, with their intervals. */
    async schedulers(chain = false): Promise<Map<number, number | undefined>> {
        const all = await (chain ? this.chainQueue : this.queue).getJobSchedulers(0, -1);
        return new Map(all.map((s) => [Number(s.key), s.every]));
    }

    /**
     * The job schedulers' ids alone, each with the interval this process wants it at: one read of the schedulers' set
     * rather than one per scheduler. A scheduler at another interval is found by the next full reconcile.
     */
    private async schedulerIds(chain: boolean): Promise<Map<number, number | undefined>> {
        const flat = await (chain ? this.chainQueue : this.queue).getBackend().getJobSchedulersRange(0, -1, true);
        const out = new Map<number, number | undefined>();
        for (let i = 0; i < flat.length; i += 2) {
            const id = Number(flat[i]);
            out.set(id, this.wanted.get(id)?.every);
        }
        return out;
    }

    private consume(name: string, chain: boolean): Worker<CheckJob> {
        const worker = new Worker<CheckJob>(name, (job, token) => this.process(job, chain, token), {
            connection: redisConnection(this.opts.redisUrl),
            concurrency: this.concurrency,
            lockDuration: LOCK_MS,
            stalledInterval: STALLED_SWEEP_MS,
            // A stalled check is not run again: its monitor's next run is already queued.
            maxStalledCount: 0,
        });
        worker.on('error', (err) => this.opts.log.warn(`${chain ? 'Chain check' : 'Check'} worker: ${err.message}`));
        return worker;
    }

    private async process(job: Job<CheckJob>, chain: boolean, token?: string): Promise<void> {
        const due = slotOf(job);
        const id = job.data.monitorId;
        // A run left in the other queue by a monitor that changed type (its scheduler is moved at the next reconcile):
        // a check judged across monitors runs only in the process that holds their facts.
        const wanted = this.wanted.get(id);
        if (wanted && wanted.chain !== chain) {
            this.stats.skipped++;
            return;
        }
        const group = this.groups.get(id);
        const limit = group === undefined ? undefined : this.limits.get(group);
        // Slots in Redis only for a group that could reach its cap: two round trips more per check.
        const cap =
            group !== undefined && limit !== undefined && (this.reach.get(group) ?? Number.POSITIVE_INFINITY) > limit
                ? limit
                : undefined;
        const holder = `${job.id}:${token ?? ''}`;
        if (group !== undefined && cap !== undefined && !(await this.opts.slots.acquire(group, cap, holder))) {
            const retryAt = Date.now() + SLOT_RETRY_MS * (1 + Math.random());
            if (retryAt >= due + (this.wanted.get(id)?.every ?? 0)) {
                this.stats.skipped++;
                return;
            }
            await job.moveToDelayed(retryAt, token);
            throw new DelayedError();
        }
        this.stats.lags.push(Math.max(0, Date.now() - due));
        if (this.stats.lags.length > LAG_SAMPLES) this.stats.lags.splice(0, this.stats.lags.length - LAG_SAMPLES);
        this.stats.started++;
        this.inFlight++;
        // The slot is given back once the target has been read: the cap is about reads of the company's targets, and
        // the state read and save after them are shared with other monitors' (StateBatches) and wait on those.
        let giving: Promise<void> | null = null;
        const giveBack = () => {
            if (giving || group === undefined || cap === undefined) return;
            giving = this.opts.slots
                .release(group, holder)
                .catch((err) => this.opts.log.warn(`Giving back a company's check slot failed: ${err.message}`));
        };
        try {
            await this.run(id, due, giveBack);
        } finally {
            this.inFlight--;
            giveBack();
            await giving;
        }
    }

    /** Reconciles once at a time; a call meanwhile makes one more afterwards. */
    private reconcileSoon(): void {
        if (!this.started || !this.complete) return;
        if (this.syncing) {
            this.again = true;
            return;
        }
        this.syncing = this.reconcile()
            .catch((err) => this.opts.log.warn(`Updating the check schedules failed: ${(err as Error).message}`))
            .finally(() => {
                this.syncing = null;
                if (this.again) {
                    this.again = false;
                    this.reconcileSoon();
                }
            });
    }

    /**
     * Makes Redis hold exactly one job scheduler per wanted monitor, with its interval, in its queue (CHAIN_QUEUE for
     * the checks judged across monitors); one in the other queue is removed.
     */
    private async reconcile(): Promise<void> {
        const full = this.full;
        this.full = false;
        try {
            await this.compare(full);
        } catch (err) {
            // A full compare that failed is made again next time.
            if (full) this.full = true;
            throw err;
        }
    }

    private async compare(full: boolean): Promise<void> {
        const read = full ? (chain: boolean) => this.schedulers(chain) : (chain: boolean) => this.schedulerIds(chain);
        const [have, haveChain] = await Promise.all([read(false), read(true)]);
        const wanted = new Map(this.wanted);
        for (const [id, { every, firstDelayMaxMs, chain }] of wanted) {
            const [own, queue] = chain ? [haveChain, this.chainQueue] : [have, this.queue];
            if (own.get(id) === every) continue;
            // A scheduler runs first at its start date, then every `every` from there: without one, all the
            // schedulers made in one reconcile would run in the same second of every interval, a burst each time.
            const startDate = Date.now() + Math.random() * Math.min(firstDelayMaxMs, every);
            await queue.upsertJobScheduler(
                String(id),
                { every, startDate },
                { name: 'check', data: { monitorId: id }, opts: { removeOnComplete: true, removeOnFail: true } }
            );
        }
        for (const id of have.keys())
            if (wanted.get(id)?.chain !== false) await this.queue.removeJobScheduler(String(id));
        for (const id of haveChain.keys())
            if (wanted.get(id)?.chain !== true) await this.chainQueue.removeJobScheduler(String(id));
    }
}
