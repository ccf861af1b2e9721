import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type Job, Queue, QueueEvents, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { alive, beat, leave } from '../db/presence';
import { redisConnection } from '../db/redis';
import type { Sighting } from './probe-health';
import { cutLocations, recordSightings } from './probe-health-store';
import { readWithin } from './read-target';
import type { ReadRequest, Reader } from './readers';
import { errorText } from './texts';

/**
 * Reads from other places, so a failure can be confirmed from a second network. Every process that reads targets belongs to one location (PROBE_LOCATION)
 * and serves that location's BullMQ queue, `probe-<location>`: a job there is one read, and its return value is
 * the raw reading. A worker that takes a check job reads from its own location itself and asks every other
 * location the monitor names through their queues; judging, state and alerts stay with it.
 *
 * What a probe (ROLE=probe, see server/probe.ts) holds, and what its theft allows: it holds REDIS_URL and nothing
 * else, no database credential, no APP_SECRET, no channel secret. Through its jobs it sees, while it runs, what a
 * read needs: the monitors' types and settings, their nodes' addresses (with any password written in an address,
 * in clear, since the probe must use it), the chain name and the company's allowed networks. Whoever steals a
 * probe can therefore read those addresses and forge its location's readings; and since REDIS_URL opens the whole
 * Redis database unless the operator narrows it, also read every other location's jobs, answer them, and tamper
 * with the check schedulers and the event channel. So give a remote probe a Redis ACL user limited to its queue's
 * keys (`~bull:probe-<location>:*`, the location keys below; docs/cluster.md has the line it starts with) rather than the
 * cluster's full URL; with it, a thief sees and answers that location's reads only (and may claim locations alive
 * that are not, which monitors checked from every location then name as silent); with `confirm` of 2 or more its
 * forged readings alone cannot page, nor hide a failure the other locations confirm. It cannot reach PostgreSQL,
 * decrypt stored secrets, send alerts or change a monitor.
 */
export const probeQueue = (location: string) => `probe-${location}`;

/** One read asked of a location: all the probe learns of the monitor. */
export interface ProbeJob {
    req: ReadRequest;
    timeoutMs: number;
    /** Epoch ms after which the asker has given up: a probe taking the job later skips it. */
    startBy: number;
}

export type ProbeAnswer = { ok: true; value: unknown; ms: number } | { ok: false; error: string; ms: number };

const LOCATION_KEY = 'node-monitor:locations:';
/** The probes' liveness keys (db/presence.ts); under LOCATION_KEY, so a probe's Redis user reaches it. */
const LOCATION_INDEX = `${LOCATION_KEY}index`;
const BEAT_MS = 5000;
const TTL_MS = 15_000;
/** Time allowed for a job to reach a probe and its answer to come back, beside the read's own timeout. */
export const QUEUE_MARGIN_MS = 2000;

/** Serves one location's reads from the queue, and says it is alive (the cluster's list of locations). */
export class ProbeServer {
    private worker: Worker<ProbeJob, ProbeAnswer | null> | null = null;
    private readonly redis: Redis;
    private timer: NodeJS.Timeout | null = null;
    private readonly key: string;
    private readonly stopping = new AbortController();

    constructor(
        private readonly opts: { redisUrl: string; location: string; read: Reader; log: FastifyBaseLogger },
        private readonly concurrency = 64
    ) {
        this.redis = new Redis(redisConnection(opts.redisUrl));
        this.redis.on('error', (err) => opts.log.warn(`Probe ${opts.location}: ${err.message}`));
        this.key = `${LOCATION_KEY}${opts.location}:${randomUUID()}`;
    }

    async start(): Promise<void> {
        await this.beat();
        this.timer = setInterval(() => void this.beat().catch(() => {}), BEAT_MS);
        this.worker = new Worker<ProbeJob, ProbeAnswer | null>(
            probeQueue(this.opts.location),
            (job) => this.serve(job),
            {
                connection: redisConnection(this.opts.redisUrl),
                concurrency: this.concurrency,
                // A read lasts at most 15 s; an answer after the asker's wait is worthless, so a stalled read is dropped.
                lockDuration: 20_000,
                maxStalledCount: 0,
            }
        );
        this.worker.on('error', (err) => this.opts.log.warn(`Probe ${this.opts.location} queue: ${err.message}`));
        await this.worker.waitUntilReady();
    }

    async stop(): Promise<void> {
        if (this.timer) clearInterval(this.timer);
        this.stopping.abort();
        await this.worker?.close();
        await leave(this.redis, LOCATION_INDEX, this.key).catch(() => {});
        this.redis.disconnect();
    }

    private async beat(): Promise<void> {
        await beat(this.redis, LOCATION_INDEX, this.key, String(Date.now()), TTL_MS);
    }

    private async serve(job: Job<ProbeJob>): Promise<ProbeAnswer | null> {
        const { req, timeoutMs, startBy } = job.data;
        if (Date.now() > startBy) return null;
        const started = performance.now();
        try {
            const value = await readWithin(this.opts.read, req, timeoutMs, this.stopping.signal);
            return { ok: true, value, ms: performance.now() - started };
        } catch (err) {
            return { ok: false, error: errorText(err), ms: performance.now() - started };
        }
    }
}

/** The locations alive in the cluster, as their probe servers' keys say. */
export async function liveLocations(redis: Redis): Promise<string[]> {
    const keys = await alive(redis, LOCATION_INDEX);
    return [...new Set(keys.map(({ key }) => key.slice(LOCATION_KEY.length).replace(/:[^:]*$/, '')))].sort();
}

/**
 * The asking side: which locations are alive and which have lost their own network (both refreshed every few
 * seconds), and one read asked of a location, answered within the read's timeout and the queue's margin or not at
 * all (null).
 */
export class RemoteLocations {
    private readonly redis: Redis;
    private readonly queues = new Map<string, { queue: Queue<ProbeJob>; events: QueueEvents }>();
    private known: string[] = [];
    private cutOff: ReadonlySet<string> = new Set();
    private timer: NodeJS.Timeout | null = null;

    constructor(private readonly opts: { redisUrl: string; here: string; log: FastifyBaseLogger }) {
        this.redis = new Redis(redisConnection(opts.redisUrl));
        this.redis.on('error', (err) => opts.log.warn(`Locations: ${err.message}`));
    }

    async start(): Promise<void> {
        await this.refresh();
        this.timer = setInterval(() => void this.refresh(), BEAT_MS);
    }

    async stop(): Promise<void> {
        if (this.timer) clearInterval(this.timer);
        for (const { queue, events } of this.queues.values()) {
            await events.close();
            await queue.close();
        }
        this.redis.disconnect();
    }

    /** Every live location, this one included. */
    get all(): string[] {
        return this.known.includes(this.opts.here) ? this.known : [...this.known, this.opts.here].sort();
    }

    /** The locations whose probes lost their own network (probe-health.ts): their readings count neither way. */
    get cut(): ReadonlySet<string> {
        return this.cutOff;
    }

    /** Notes how each location's reading of a monitor stood beside the others', for the probes' watch. */
    async record(
        monitor: { id: number; companyId: number },
        sightings: { location: string; sighting: Sighting }[],
        freshMs: number
    ): Promise<void> {
        try {
            await recordSightings(this.redis, monitor, sightings, freshMs);
        } catch (err) {
            this.opts.log.debug(`Recording the locations' sightings failed: ${(err as Error).message}`);
        }
    }

    private async refresh(): Promise<void> {
        try {
            this.known = await liveLocations(this.redis);
            this.cutOff = new Set(await cutLocations(this.redis));
        } catch (err) {
            this.opts.log.warn(`Listing the probe locations failed: ${(err as Error).message}`);
        }
    }

    private async queueOf(location: string) {
        let q = this.queues.get(location);
        if (!q) {
            const connection = redisConnection(this.opts.redisUrl);
            q = {
                queue: new Queue<ProbeJob>(probeQueue(location), { connection }),
                events: new QueueEvents(probeQueue(location), { connection }),
            };
            q.queue.on('error', (err) => this.opts.log.warn(`Probe queue ${location}: ${err.message}`));
            q.events.on('error', (err) => this.opts.log.warn(`Probe queue ${location}: ${err.message}`));
            this.queues.set(location, q);
        }
        await q.events.waitUntilReady();
        return q;
    }

    /** Asks `location` for one read; null when it does not answer in time. */
    async ask(location: string, req: ReadRequest, timeoutMs: number): Promise<ProbeAnswer | null> {
        const waitMs = timeoutMs + QUEUE_MARGIN_MS;
        let job: Job<ProbeJob> | undefined;
        try {
            const { queue, events } = await this.queueOf(location);
            job = await queue.add(
                'read',
                { req, timeoutMs, startBy: Date.now() + QUEUE_MARGIN_MS },
                { removeOnComplete: true, removeOnFail: true }
            );
            const answer = (await job.waitUntilFinished(events, waitMs)) as ProbeAnswer | null;
            return answer ?? null;
        } catch (err) {
            this.opts.log.debug(`No answer from ${location}: ${(err as Error).message}`);
            // Nobody took it: it must not wait there for a probe that starts later.
            await job?.remove().catch(() => {});
            return null;
        }
    }
}
