import type { LogMessage } from '../../common/entities';
import { getConfig } from './config';
import { messageOf, request } from './httpClient';
import { getAccessToken, loadSession } from './session';

/** The realtime topic of the live log tail (react-admin's `subscribe(topic, callback)` convention). */
export const LOG_TOPIC = 'logs';

export type LogSocketStatus = 'connecting' | 'open' | 'error' | 'closed';

/** What a log-tail subscriber receives: a log line, or a change of the connection's state. */
export type LogEvent =
    | { topic: typeof LOG_TOPIC; type: 'message'; payload: LogMessage }
    | { topic: typeof LOG_TOPIC; type: 'status'; payload: { status: LogSocketStatus; message?: string } };

export type LogEventCallback = (event: LogEvent) => void;

/** Reconnect delays grow 0.5 s, 1 s, 2 s, 4 s, then stay at 5 s until the server is back. */
export const RECONNECT_BASE_MS = 500;
export const RECONNECT_MAX_MS = 5000;

export function reconnectDelay(attempt: number): number {
    return Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** attempt);
}

const LEVELS = new Set(['debug', 'info', 'warn', 'error']);

/** A wire frame as a log line; anything that is not `{level, message, timestamp}` JSON is dropped. */
export function parseLogLine(text: string): LogMessage | null {
    let value: unknown;
    try {
        value = JSON.parse(text);
    } catch {
        return null;
    }
    if (!value || typeof value !== 'object') return null;
    const { level, message, timestamp } = value as Record<string, unknown>;
    if (typeof message !== 'string') return null;
    return {
        level: typeof level === 'string' && LEVELS.has(level) ? (level as LogMessage['level']) : 'info',
        message,
        timestamp: typeof timestamp === 'string' ? timestamp : '',
    };
}

/** Frames are JSON text, or Blobs/ArrayBuffers of it (docs/spec.md §4 says "blobs of JSON"). */
async function frameText(data: unknown): Promise<string> {
    if (typeof data === 'string') return data;
    if (data instanceof Blob) return data.text();
    if (data instanceof ArrayBuffer) return new TextDecoder().decode(data);
    return String(data);
}

const lineKey = (line: LogMessage) => `${line.timestamp}|${line.level}|${line.message}`;
/** How many recent lines are remembered to drop the server's replay after a reconnect. */
const SEEN_LIMIT = 1000;

/**
 * One subscriber's connection to the log socket. Every (re)connect asks the session for a token (an expired one is
 * refreshed first) and trades it for a single-use ticket (`POST /logs/ticket`) that goes in the socket URL as
 * `?ticket=`: the token itself never appears in a URL, where proxies would log it. After any close that
 * the subscriber did not ask for (server restart, token expiry, network), it reconnects with backoff. The server
 * replays its last lines on each connect; lines already delivered are dropped then.
 */
export class LogConnection {
    private socket: WebSocket | null = null;
    private timer: ReturnType<typeof setTimeout> | null = null;
    private attempt = 0;
    private stopped = false;
    /** Keys of recently delivered lines, in order, and the latest timestamp before the current connection. */
    private seen: string[] = [];
    private seenSet = new Set<string>();
    private replayBefore = '';
    private latest = '';
    /** Frames are decoded in arrival order, even when a Blob takes a while to read. */
    private queue: Promise<void> = Promise.resolve();

    constructor(private readonly emit: LogEventCallback) {}

    start(): void {
        void this.connect();
    }

    stop(): void {
        this.stopped = true;
        if (this.timer) clearTimeout(this.timer);
        this.timer = null;
        const socket = this.socket;
        this.socket = null;
        if (socket && socket.readyState !== WebSocket.CLOSED && socket.readyState !== WebSocket.CLOSING) {
            socket.close(1000, 'Unsubscribed');
        }
    }

    private status(status: LogSocketStatus, message?: string): void {
        if (!this.stopped) this.emit({ topic: LOG_TOPIC, type: 'status', payload: { status, message } });
    }

    private async connect(): Promise<void> {
        if (this.stopped) return;
        this.status('connecting');
        let token: string | null;
        try {
            token = await getAccessToken();
        } catch (error) {
            if (this.stopped) return;
            this.status('error', error instanceof Error ? error.message : String(error));
            // The refresh failed but the session is kept (server unreachable, e.g. restarting): try again later.
            if (loadSession()) {
                this.scheduleReconnect();
                return;
            }
            token = null;
        }
        if (this.stopped) return;
        if (!token) {
            // Signed out: there is no token to retry with.
            this.status('closed', 'Not signed in');
            return;
        }
        const ticket = await request<{ ticket?: unknown }>('/logs/ticket', { method: 'POST', token });
        if (this.stopped) return;
        if (!ticket.ok || typeof ticket.json?.ticket !== 'string') {
            this.status('error', messageOf(ticket.json) ?? `HTTP error ${ticket.status}`);
            this.scheduleReconnect();
            return;
        }
        const url = new URL(getConfig('socketUrl'), window.location.href);
        url.searchParams.set('ticket', ticket.json.ticket);
        const socket = new WebSocket(url.toString());
        this.socket = socket;
        this.replayBefore = this.latest;
        socket.onopen = () => {
            if (socket !== this.socket) return;
            this.attempt = 0;
            this.status('open');
        };
        socket.onmessage = (event: MessageEvent) => {
            if (socket !== this.socket) return;
            this.queue = this.queue.then(async () => this.deliver(await frameText(event.data)));
        };
        socket.onerror = () => {
            if (socket !== this.socket) return;
            this.status('error');
        };
        socket.onclose = (event: CloseEvent) => {
            if (socket !== this.socket || this.stopped) return;
            this.socket = null;
            this.status('closed', event.reason || undefined);
            this.scheduleReconnect();
        };
    }

    private deliver(text: string): void {
        if (this.stopped) return;
        const line = parseLogLine(text);
        if (!line) return;
        const key = lineKey(line);
        // A replayed line (not newer than what the previous connection saw) that was already delivered.
        if (this.replayBefore && line.timestamp <= this.replayBefore && this.seenSet.has(key)) return;
        this.seen.push(key);
        this.seenSet.add(key);
        if (this.seen.length > SEEN_LIMIT) {
            const dropped = this.seen.shift();
            if (dropped !== undefined && !this.seen.includes(dropped)) this.seenSet.delete(dropped);
        }
        if (line.timestamp > this.latest) this.latest = line.timestamp;
        this.emit({ topic: LOG_TOPIC, type: 'message', payload: line });
    }

    private scheduleReconnect(): void {
        const delay = reconnectDelay(this.attempt);
        this.attempt++;
        this.timer = setTimeout(() => {
            this.timer = null;
            void this.connect();
        }, delay);
    }
}

const connections = new Map<LogEventCallback, LogConnection>();

/**
 * react-admin realtime methods for the dataProvider. Only the `logs` topic exists; each callback gets its own
 * connection (and so its own replay of the server's last lines).
 */
export const logRealtime = {
    subscribe: async (topic: string, callback: LogEventCallback): Promise<{ data: null }> => {
        if (topic !== LOG_TOPIC) throw new Error(`Unknown realtime topic ${topic}`);
        if (!connections.has(callback)) {
            const connection = new LogConnection(callback);
            connections.set(callback, connection);
            connection.start();
        }
        return { data: null };
    },
    unsubscribe: async (topic: string, callback: LogEventCallback): Promise<{ data: null }> => {
        if (topic === LOG_TOPIC) {
            connections.get(callback)?.stop();
            connections.delete(callback);
        }
        return { data: null };
    },
};
