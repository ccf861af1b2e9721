import { Writable } from 'node:stream';
import type { LogMessage } from '../../common/entities';

const LEVELS: Record<number, LogMessage['level']> = {
    10: 'debug',
    20: 'debug',
    30: 'info',
    40: 'warn',
    50: 'error',
    60: 'error',
};

/**
 * Receives the server's own pino lines, keeps the last `capacity` of them for replay, and pushes each new one to
 * the log-tail subscribers. Lines arrive already redacted by pino, so secrets never reach a subscriber.
 */
export class LogHub {
    private readonly buffer: LogMessage[] = [];
    private readonly subscribers = new Set<(m: LogMessage) => void>();
    readonly stream: Writable;

    constructor(private readonly capacity = 500) {
        this.stream = new Writable({
            write: (chunk: Buffer, _enc, done) => {
                for (const line of chunk.toString('utf8').split('\n')) if (line) this.ingest(line);
                done();
            },
        });
    }

    recent(): LogMessage[] {
        return [...this.buffer];
    }

    subscribe(fn: (m: LogMessage) => void): () => void {
        this.subscribers.add(fn);
        return () => this.subscribers.delete(fn);
    }

    private ingest(line: string): void {
        let parsed: { level?: number; msg?: string; time?: number; err?: { message?: string }; reqId?: string } = {};
        try {
            parsed = JSON.parse(line);
        } catch {
            return;
        }
        if (!parsed.msg) return;
        const message: LogMessage = {
            level: LEVELS[parsed.level ?? 30] ?? 'info',
            message:
                parsed.err?.message && parsed.err.message !== parsed.msg
                    ? `${parsed.msg}: ${parsed.err.message}`
                    : parsed.msg,
            timestamp: new Date(parsed.time ?? Date.now()).toISOString(),
        };
        this.add(message);
    }

    /** A line, of this process or (in the cluster profile) of another one, for replay and to every subscriber. */
    add(message: LogMessage): void {
        this.buffer.push(message);
        if (this.buffer.length > this.capacity) this.buffer.shift();
        for (const fn of this.subscribers) fn(message);
    }
}
