import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { redisConnection } from '../db/redis';
import type { LogMessage } from '../../common/entities';
import type { AppEvent, EventBus } from '../events';
import type { LogHub } from '../logs/hub';

const EVENTS = 'node-monitor:events';
const LOGS = 'node-monitor:logs';

/**
 * The cluster profile's event bus and log tail: every event emitted in one process is published on Redis and
 * emitted in every other, so a monitor edited through any `web` process reaches the workers' engines (and a
 * channel change their Telegram pollers) within moments, not at their next periodic reload; every log line goes
 * to every process's log hub, so the log tail of any `web` process shows the lines of all, workers included.
 */
export class EventRelay {
    private readonly id = randomUUID();
    private readonly pub: Redis;
    private readonly sub: Redis;
    private relaying = false;
    private unsubscribe: (() => void)[] = [];

    constructor(
        private readonly events: EventBus,
        private readonly logs: LogHub,
        redisUrl: string,
        private readonly log: FastifyBaseLogger,
        /** Only a process that serves the log tail reads the others' lines; every process publishes its own. */
        private readonly tailsLogs: boolean
    ) {
        this.pub = new Redis(redisConnection(redisUrl));
        this.sub = new Redis(redisConnection(redisUrl));
        for (const r of [this.pub, this.sub]) r.on('error', (err) => log.warn(`Event relay: ${err.message}`));
    }

    async start(): Promise<void> {
        this.sub.on('message', (channel: string, raw: string) => {
            try {
                const { from, event, line } = JSON.parse(raw) as { from: string; event?: AppEvent; line?: LogMessage };
                if (from === this.id) return;
                // Handed on synchronously: the flag keeps it from being published again.
                this.relaying = true;
                if (channel === EVENTS && event) this.events.emit(event);
                if (channel === LOGS && line) this.logs.add(line);
            } catch (err) {
                this.log.warn(`Event relay: a message could not be read: ${(err as Error).message}`);
            } finally {
                this.relaying = false;
            }
        });
        await this.sub.subscribe(...(this.tailsLogs ? [EVENTS, LOGS] : [EVENTS]));
        const publish = (channel: string, body: object) => {
            if (!this.relaying)
                void this.pub.publish(channel, JSON.stringify({ from: this.id, ...body })).catch(() => {});
        };
        this.unsubscribe = [
            this.events.subscribe((event) => publish(EVENTS, { event })),
            this.logs.subscribe((line) => publish(LOGS, { line })),
        ];
    }

    async stop(): Promise<void> {
        for (const off of this.unsubscribe) off();
        this.sub.disconnect();
        this.pub.disconnect();
    }
}
