import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { alive, beat, leave } from '../db/presence';
import { requestPathConnection } from '../db/redis';

/** A process that runs checks and deliveries, as /api/health lists it. */
export interface WorkerInfo {
    id: string;
    pid: number;
    host: string;
    started_at: string;
    last_seen_at: string;
}

const KEY = 'node-monitor:workers:';
const INDEX = `${KEY}index`;
const BEAT_MS = 5000;
/** A worker not seen for this long has left the list: one killed with -9 is gone within it. */
const TTL_SECONDS = 15;

/**
 * The processes that run checks. Without Redis there is one, this process, while its engine runs. In the cluster
 * profile each worker (and each `all` process) writes a Redis key that expires unless renewed, so the list every
 * process reads holds exactly the live ones.
 */
export class WorkerRegistry {
    private readonly self: Omit<WorkerInfo, 'last_seen_at'> = {
        id: randomUUID(),
        pid: process.pid,
        host: hostname(),
        started_at: new Date().toISOString(),
    };
    private readonly redis: Redis | null;
    private timer: NodeJS.Timeout | null = null;
    private working: () => boolean = () => false;

    constructor(redisUrl: string | null, log: FastifyBaseLogger) {
        this.redis = redisUrl ? new Redis(requestPathConnection(redisUrl)) : null;
        this.redis?.on('error', (err) => log.warn(`Worker list: ${err.message}`));
    }

    /** This process's id, as /api/health lists it and /metrics labels it. */
    get id(): string {
        return this.self.id;
    }

    /** This process runs checks while `working` says so; in the cluster profile it says so every few seconds. */
    async join(working: () => boolean): Promise<void> {
        this.working = working;
        if (!this.redis) return;
        await this.beat();
        this.timer = setInterval(() => void this.beat().catch(() => {}), BEAT_MS);
        this.timer.unref();
    }

    async live(): Promise<WorkerInfo[]> {
        if (!this.redis) return this.working() ? [{ ...this.self, last_seen_at: new Date().toISOString() }] : [];
        return (await alive(this.redis, INDEX))
            .map(({ value }) => JSON.parse(value) as WorkerInfo)
            .sort((a, b) => a.started_at.localeCompare(b.started_at));
    }

    async stop(): Promise<void> {
        if (this.timer) clearInterval(this.timer);
        if (!this.redis) return;
        // A clean stop leaves the list at once; a killed process leaves it when its key expires.
        await leave(this.redis, INDEX, KEY + this.self.id).catch(() => {});
        this.redis.disconnect();
    }

    private async beat(): Promise<void> {
        if (!this.redis || !this.working()) return;
        const info: WorkerInfo = { ...this.self, last_seen_at: new Date().toISOString() };
        await beat(this.redis, INDEX, KEY + this.self.id, JSON.stringify(info), TTL_SECONDS * 1000);
    }
}
