import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback stand-in for the Telegram Bot API: records sendMessage calls and answers as scripted. */
export interface SentMessage {
    token: string;
    chat_id: string | number;
    text: string;
    message_thread_id?: number;
    parse_mode?: string;
}

export interface ScriptedReply {
    status: number;
    /** JSON-encoded, or sent as is when a string (an outage page). */
    body: unknown;
    headers?: Record<string, string>;
}

/** One request as the fake saw it: when it arrived (Date.now()), for which token and text, and the status answered. */
export interface RequestRecord {
    at: number;
    token: string;
    text: string | undefined;
    status: number;
}

export interface FakeTelegram {
    url: string;
    /** Messages Telegram accepted, in arrival order. */
    sent: SentMessage[];
    /** Every request, accepted or not. */
    attempts: number;
    /** Every request in arrival order, with its time and the status answered. */
    requests: RequestRecord[];
    /** Replies used, in order, before falling back to success. */
    script: ScriptedReply[];
    /** Consulted before `script`: a reply for this request (e.g. per token), or undefined to go on as usual. */
    reply?: (message: SentMessage) => ScriptedReply | undefined;
    close(): Promise<void>;
}

export const tooManyRequests = (retryAfter: number): ScriptedReply => ({
    status: 429,
    body: {
        ok: false,
        error_code: 429,
        description: `Too Many Requests: retry after ${retryAfter}`,
        parameters: { retry_after: retryAfter },
    },
    headers: { 'retry-after': String(retryAfter) },
});

export const unauthorized: ScriptedReply = {
    status: 401,
    body: { ok: false, error_code: 401, description: 'Unauthorized' },
};

export async function startFakeTelegram(): Promise<FakeTelegram> {
    let messageId = 1;
    const fake: FakeTelegram = { url: '', sent: [], attempts: 0, requests: [], script: [], close: async () => {} };
    const server: Server = createServer((req, res) => {
        let raw = '';
        req.on('data', (c: Buffer) => {
            raw += c.toString('utf8');
        });
        req.on('end', () => {
            fake.attempts++;
            const at = Date.now();
            const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
            const body = raw ? (JSON.parse(raw) as Omit<SentMessage, 'token'>) : ({} as Omit<SentMessage, 'token'>);
            const message: SentMessage = { token: match?.[1] ?? '', ...body };
            const reply = (status: number, answer: unknown, headers: Record<string, string> = {}) => {
                fake.requests.push({ at, token: message.token, text: body.text, status });
                res.writeHead(status, { 'content-type': 'application/json', ...headers });
                res.end(typeof answer === 'string' ? answer : JSON.stringify(answer));
            };
            if (!match) return reply(404, { ok: false, error_code: 404, description: 'Not Found' });
            const scripted = fake.reply?.(message) ?? fake.script.shift();
            if (scripted) return reply(scripted.status, scripted.body, scripted.headers);
            if (match[2]?.toLowerCase() === 'sendmessage') fake.sent.push(message);
            reply(200, {
                ok: true,
                result: {
                    message_id: messageId++,
                    date: Math.floor(Date.now() / 1000),
                    chat: { id: body.chat_id },
                    text: body.text,
                },
            });
        });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    fake.close = () => new Promise<void>((r) => server.close(() => r()));
    return fake;
}
