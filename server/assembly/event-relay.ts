import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { redisConnection } from '../db/redis';
import type { LogMessage } from '../../common/entities';
import type { AppEvent, EventBus } from '../events';
import type { LogHub } from '../logs/hub';
import type { Revocation } from '../services/sessions';

const EVENTS = 'node-monitor:events';
const LOGS = 'node-monitor:logs';
const REVOCATIONS = 'node-monitor:revocations';

/** A process's ended sessions: announced where a session ends, heard where its log sockets are open. */
export interface RevocationPort {
    subscribe(listener: (r: Revocation) => void): () => void;
    announce(r: Revocation): void;
}

/**
 * The cluster profile's event bus and log tail: every event emitted in one process is published on Redis and
 * emitted in every other, so a monitor edited through any `web` process reaches the workers' engines (and a
 * channel change their Telegram pollers) within moments, not at their next periodic reload; every log line goes
 * to every process's log hub, so the log tail of any `web` process shows the lines of all, workers included; every
 * ended session is announced in every process, so a log socket closes the moment its sign-in ends anywhere.
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
        private readonly tailsLogs: boolean,
        private readonly revocations: RevocationPort
    ) {
        this.pub = new Redis(redisConnection(redisUrl));
        this.sub = new Redis(redisConnection(redisUrl));
        for (const r of [this.pub, this.sub]) r.on('error', (err) => log.warn(`Event relay: ${err.message}`));
    }

    async start(): Promise<void> {
        this.sub.on('message', (channel: string, raw: string) => {
            try {
                const { from, event, line, revoked } = JSON.parse(raw) as {
                    from: string;
                    event?: AppEvent;
                    line?: LogMessage;
                    revoked?: Revocation;
                };
                if (from === this.id) return;
                // Handed on synchronously: the flag keeps it from being published again.
                this.relaying = true;
                if (channel === EVENTS && event) this.events.emit(event);
                if (channel === LOGS && line) this.logs.add(line);
                if (channel === REVOCATIONS && revoked) this.revocations.announce(revoked);
            } catch (err) {
                this.log.warn(`Event relay: a message could not be read: ${(err as Error).message}`);
            } finally {
                this.relaying = false;
            }
        });
        await this.sub.subscribe(...(this.tailsLogs ? [EVENTS, LOGS, REVOCATIONS] : [EVENTS]));
        const publish = (channel: string, body: object) => {
            if (!this.relaying)
                void this.pub.publish(channel, JSON.stringify({ from: this.id, ...body })).catch(() => {});
        };
        this.unsubscribe = [
            this.events.subscribe((event) => publish(EVENTS, { event })),
            this.logs.subscribe((line) => publish(LOGS, { line })),
            this.revocations.subscribe((revoked) => publish(REVOCATIONS, { revoked })),
        ];
    }

    async stop(): Promise<void> {
        for (const off of this.unsubscribe) off();
        this.sub.disconnect();
        this.pub.disconnect();
    }
}
