/**
 * Runs each job on its own interval, fixed-rate on the monotonic clock, with a cap on jobs in flight. A job still
 * running when it is due again skips that cycle instead of piling up; a late loop (stall, clock step) never fires
 * a burst of catch-up runs. Kept behind this small surface so a distributed implementation can replace it.
 *
 * Jobs belong to groups (the engine's companies), each with its own cap on jobs in flight. Due jobs wait in their
 * group's queue, and a free slot goes to the group with the fewest jobs in flight: a group at its cap, or one whose
 * slow jobs hold many slots, waits for its own slots without delaying any other group's jobs.
 */
/**
 * Runs one job; `slot` is the time it was scheduled for, where the schedule names it (BullMQ). `read` is called once
 * the target has been read, when what is left (judging, saving) no longer waits on the target.
 */
export type JobRunner = (id: number, slot?: number, read?: () => void) => Promise<void>;

interface Entry {
    id: number;
    group: number;
    intervalMs: number;
    dueAt: number;
    generation: number;
    running: boolean;
    /** The due time of the run waiting in the queue, for the lag figure. */
    queuedFor: number;
}

export interface SchedulerStats {
    started: number;
    skipped: number;
    /** Recent (start − due) lags in ms, newest last. */
    lags: number[];
}

/**
 * What the engine schedules its monitors with: this file's in-process `Scheduler` (one process, the embedded
 * profile) or `QueueScheduler` on BullMQ (several worker processes). The engine upserts every monitor it loaded,
 * removes the others, then says `loaded`; the schedule runs each monitor's check every interval.
 */
export interface JobSchedule {
    readonly size: number;
    /** Jobs running right now in this process. */
    readonly running: number;
    readonly stats: SchedulerStats;
    setGroupLimits(limits: Map<number, number>): void;
    /** `acrossMonitors`: its judging uses facts other monitors' checks feed (judgedAcrossMonitors); BullMQ runs such checks in one worker. */
    upsert(id: number, intervalMs: number, firstDelayMaxMs?: number, group?: number, acrossMonitors?: boolean): void;
    remove(id: number): void;
    /** The engine loaded every monitor it runs: the upserts and removes since the last call are the whole change. */
    loaded?(): void;
    ids(): number[];
    start(): void | Promise<void>;
    /** Stops scheduling and waits for the jobs in flight. */
    stop(): Promise<void>;
}

const LAG_SAMPLES = 50_000;

interface Group {
    key: number;
    queue: Entry[];
    inFlight: number;
}

export class Scheduler implements JobSchedule {
    private readonly entries = new Map<number, Entry>();
    private heap: { dueAt: number; id: number; generation: number }[] = [];
    /** Groups with jobs queued or in flight. */
    private readonly groups = new Map<number, Group>();
    private limits = new Map<number, number>();
    private inFlight = 0;
    private timer: NodeJS.Timeout | null = null;
    private stopped = true;
    private readonly idle = new Set<() => void>();
    readonly stats: SchedulerStats = { started: 0, skipped: 0, lags: [] };

    constructor(
        private readonly run: JobRunner,
        private readonly concurrency: number,
        private readonly now: () => number = () => performance.now()
    ) {}

    get size(): number {
        return this.entries.size;
    }

    /** Jobs running right now. */
    get running(): number {
        return this.inFlight;
    }

    /** Caps on jobs in flight per group; a group without one may use every slot. Replaces the previous caps. */
    setGroupLimits(limits: Map<number, number>): void {
        this.limits = limits;
        if (!this.stopped) this.drain();
    }

    /**
     * Adds a job, or changes its interval or group; the first run comes after a random share of `firstDelayMaxMs`.
     * A job of a new group runs in that group from its next queueing.
     */
    upsert(id: number, intervalMs: number, firstDelayMaxMs = intervalMs, group = 0): void {
        const existing = this.entries.get(id);
        if (existing && existing.intervalMs === intervalMs) {
            existing.group = group;
            return;
        }
        const entry: Entry = {
            id,
            group,
            intervalMs,
            dueAt: this.now() + Math.random() * Math.min(firstDelayMaxMs, intervalMs),
            generation: (existing?.generation ?? 0) + 1,
            running: existing?.running ?? false,
            queuedFor: 0,
        };
        this.entries.set(id, entry);
        this.push(entry);
    }

    remove(id: number): void {
        this.entries.delete(id);
    }

    ids(): number[] {
        return [...this.entries.keys()];
    }

    start(): void {
        this.stopped = false;
        this.arm();
    }

    /** Stops scheduling and waits for the jobs in flight. */
    async stop(): Promise<void> {
        this.stopped = true;
        if (this.timer) clearTimeout(this.timer);
        this.timer = null;
        for (const [key, g] of this.groups) {
            g.queue.length = 0;
            if (g.inFlight === 0) this.groups.delete(key);
        }
        if (this.inFlight > 0) await new Promise<void>((r) => this.idle.add(r));
    }

    private push(e: Entry): void {
        const heap = this.heap;
        heap.push({ dueAt: e.dueAt, id: e.id, generation: e.generation });
        let i = heap.length - 1;
        while (i > 0) {
            const p = (i - 1) >> 1;
            const a = heap[i];
            const b = heap[p];
            if (!a || !b || b.dueAt <= a.dueAt) break;
            heap[i] = b;
            heap[p] = a;
            i = p;
        }
        if (i === 0 && !this.stopped) this.arm();
    }

    private pop(): { dueAt: number; id: number; generation: number } | undefined {
        const heap = this.heap;
        const top = heap[0];
        const last = heap.pop();
        if (heap.length > 0 && last) {
            heap[0] = last;
            let i = 0;
            for (;;) {
                const l = 2 * i + 1;
                const r = l + 1;
                let m = i;
                const hm = heap[m];
                const hl = heap[l];
                const hr = heap[r];
                if (hl && hm && hl.dueAt < hm.dueAt) m = l;
                const hm2 = heap[m];
                if (hr && hm2 && hr.dueAt < hm2.dueAt) m = r;
                if (m === i) break;
                const a = heap[i];
                const b = heap[m];
                if (!a || !b) break;
                heap[i] = b;
                heap[m] = a;
                i = m;
            }
        }
        return top;
    }

    private arm(): void {
        if (this.timer) clearTimeout(this.timer);
        const next = this.heap[0];
        const delay = next ? Math.max(0, Math.min(1000, next.dueAt - this.now())) : 1000;
        this.timer = setTimeout(() => this.tick(), delay);
    }

    private tick(): void {
        this.timer = null;
        if (this.stopped) return;
        const now = this.now();
        for (let top = this.heap[0]; top && top.dueAt <= now; top = this.heap[0]) {
            this.pop();
            const e = this.entries.get(top.id);
            if (!e || e.generation !== top.generation) continue;
            if (e.running) this.stats.skipped++;
            else {
                e.queuedFor = e.dueAt;
                this.groupOf(e.group).queue.push(e);
            }
            // Fixed rate; after a stall, the next run is one interval from now rather than a burst of catch-ups.
            e.dueAt = e.dueAt + e.intervalMs < now ? now + e.intervalMs : e.dueAt + e.intervalMs;
            e.running = true;
            this.push(e);
        }
        this.drain();
        this.arm();
    }

    private groupOf(key: number): Group {
        let g = this.groups.get(key);
        if (!g) {
            g = { key, queue: [], inFlight: 0 };
            this.groups.set(key, g);
        }
        return g;
    }

    /**
     * The group whose queued job runs next: of those below their cap, the one with the fewest jobs in flight, then
     * the one whose job has waited longest.
     */
    private nextGroup(): Group | undefined {
        let best: Group | undefined;
        for (const [key, g] of this.groups) {
            const head = g.queue[0];
            if (!head || g.inFlight >= (this.limits.get(key) ?? this.concurrency)) continue;
            if (
                !best ||
                g.inFlight < best.inFlight ||
                (g.inFlight === best.inFlight && head.queuedFor < (best.queue[0]?.queuedFor ?? 0))
            )
                best = g;
        }
        return best;
    }

    private drain(): void {
        while (this.inFlight < this.concurrency) {
            const g = this.nextGroup();
            const e = g?.queue.shift();
            if (!g || !e) break;
            const lag = this.now() - e.queuedFor;
            this.stats.lags.push(Math.max(0, lag));
            if (this.stats.lags.length > LAG_SAMPLES) this.stats.lags.splice(0, this.stats.lags.length - LAG_SAMPLES);
            this.stats.started++;
            this.inFlight++;
            g.inFlight++;
            this.run(e.id)
                .catch(() => {})
                .finally(() => {
                    e.running = false;
                    this.inFlight--;
                    g.inFlight--;
                    if (g.inFlight === 0 && g.queue.length === 0) this.groups.delete(g.key);
                    if (this.inFlight === 0) {
                        for (const r of this.idle) r();
                        this.idle.clear();
                    }
                    if (!this.stopped) this.drain();
                });
        }
    }
}
