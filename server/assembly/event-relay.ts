import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { redisConnection } from '../db/redis';
import type { AppEvent, EventBus } from '../events';

const CHANNEL = 'node-monitor:events';

/**
 * The cluster profile's event bus: every event emitted in one process is published on Redis and emitted in every
 * other, so a monitor edited through any `web` process reaches the workers' engines (and a channel change their
 * Telegram pollers) within moments, not at their next periodic reload.
 */
export class EventRelay {
    private readonly id = randomUUID();
    private readonly pub: Redis;
    private readonly sub: Redis;
    private relaying = false;
    private unsubscribe: (() => void) | null = null;

    constructor(
        private readonly events: EventBus,
        redisUrl: string,
        private readonly log: FastifyBaseLogger
    ) {
        this.pub = new Redis(redisConnection(redisUrl));
        this.sub = new Redis(redisConnection(redisUrl));
        for (const r of [this.pub, this.sub]) r.on('error', (err) => log.warn(`Event relay: ${err.message}`));
    }

    async start(): Promise<void> {
        this.sub.on('message', (_channel, raw: string) => {
            try {
                const { from, event } = JSON.parse(raw) as { from: string; event: AppEvent };
                if (from === this.id) return;
                // Emitted synchronously: the flag keeps it from being published again.
                this.relaying = true;
                this.events.emit(event);
            } catch (err) {
                this.log.warn(`Event relay: a message could not be read: ${(err as Error).message}`);
            } finally {
                this.relaying = false;
            }
        });
        await this.sub.subscribe(CHANNEL);
        this.unsubscribe = this.events.subscribe((event) => {
            if (!this.relaying)
                void this.pub.publish(CHANNEL, JSON.stringify({ from: this.id, event })).catch(() => {});
        });
    }

    async stop(): Promise<void> {
        this.unsubscribe?.();
        this.sub.disconnect();
        this.pub.disconnect();
    }
}
