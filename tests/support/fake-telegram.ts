import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for the Telegram Bot API: records sendMessage calls and answers as scripted, and serves button
 * presses as Telegram does (getUpdates long-polling with offsets, one poller per bot at a time, answerCallbackQuery,
 * editMessageReplyMarkup).
 */
export interface SentMessage {
    token: string;
    chat_id: string | number;
    text: string;
    message_thread_id?: number;
    parse_mode?: string;
    reply_markup?: { inline_keyboard: { text: string; callback_data: string }[][] };
}

/** A button press to deliver through getUpdates. */
export interface Press {
    token: string;
    chatId: number;
    /** The chat's @username (without @), for a public chat. */
    chatUsername?: string;
    userId: number;
    username?: string;
    messageId: number;
    data: string;
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
    /** Queues a button press for the bot's next getUpdates; returns the callback query's id. */
    press(p: Press): string;
    /** Tokens whose bot has a webhook set: getUpdates answers 409 as Telegram does. */
    webhookSet: Set<string>;
    /** Every getUpdates call: the token and the offset asked for. */
    polls: { token: string; offset: number }[];
    /** getUpdates requests ended by a newer one for the same bot (409, as Telegram does): two pollers of one bot. */
    conflicts: { token: string; at: number }[];
    /** answerCallbackQuery calls. */
    answers: { callback_query_id: string; text?: string; show_alert?: boolean }[];
    /** editMessageReplyMarkup calls. */
    edits: { chat_id: number; message_id: number; reply_markup?: SentMessage['reply_markup'] }[];
    close(): Promise<void>;
}

interface Update {
    update_id: number;
    callback_query: {
        id: string;
        from: { id: number; is_bot: false; first_name: string; username?: string };
        message: { message_id: number; date: number; chat: { id: number; type: string; username?: string } };
        chat_instance: string;
        data: string;
    };
}

/** Longest a getUpdates request is held open here, whatever timeout it asks for: tests end quickly. */
const MAX_HOLD_MS = 2000;

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
    let updateId = 100;
    const queued = new Map<string, Update[]>();
    const waiting = new Map<string, (() => void)[]>();
    const fake: FakeTelegram = {
        url: '',
        sent: [],
        attempts: 0,
        requests: [],
        script: [],
        webhookSet: new Set(),
        polls: [],
        conflicts: [],
        answers: [],
        edits: [],
        press(p) {
            const id = `cq-${updateId}`;
            const update: Update = {
                update_id: updateId++,
                callback_query: {
                    id,
                    from: { id: p.userId, is_bot: false, first_name: p.username ?? 'Operator', username: p.username },
                    message: {
                        message_id: p.messageId,
                        date: Math.floor(Date.now() / 1000),
                        chat: { id: p.chatId, type: 'supergroup', username: p.chatUsername },
                    },
                    chat_instance: String(p.chatId),
                    data: p.data,
                },
            };
            queued.set(p.token, [...(queued.get(p.token) ?? []), update]);
            for (const wake of waiting.get(p.token) ?? []) wake();
            waiting.delete(p.token);
            return id;
        },
        close: async () => {},
    };
    /** getUpdates as Telegram answers it: updates from `offset` on (older ones are confirmed and dropped). */
    const getUpdates = async (token: string, offset: number, timeoutSeconds: number) => {
        const pending = () => {
            const left = (queued.get(token) ?? []).filter((u) => u.update_id >= offset);
            queued.set(token, left);
            return left;
        };
        if (pending().length === 0 && timeoutSeconds > 0) {
            await new Promise<void>((resolve) => {
                const timer = setTimeout(resolve, Math.min(timeoutSeconds * 1000, MAX_HOLD_MS));
                waiting.set(token, [
                    ...(waiting.get(token) ?? []),
                    () => {
                        clearTimeout(timer);
                        resolve();
                    },
                ]);
            });
        }
        return pending();
    };
    /** The getUpdates request held open per token: Telegram serves one at a time per bot. */
    const holding = new Map<string, ServerResponse>();
    const server: Server = createServer((req, res) => {
        let raw = '';
        req.on('data', (c: Buffer) => {
            raw += c.toString('utf8');
        });
        req.on('end', async () => {
            const method = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
            const json = (status: number, answer: unknown) => {
                res.writeHead(status, { 'content-type': 'application/json' });
                res.end(JSON.stringify(answer));
            };
            const params = (raw ? JSON.parse(raw) : {}) as Record<string, unknown>;
            // Button traffic is kept apart from messages: `attempts` and `requests` count messages only.
            switch (method?.[2]?.toLowerCase()) {
                case 'getupdates': {
                    const token = method?.[1] ?? '';
                    fake.polls.push({ token, offset: Number(params.offset ?? 0) });
                    if (fake.webhookSet.has(token)) {
                        return json(409, {
                            ok: false,
                            error_code: 409,
                            description:
                                "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
                        });
                    }
                    // A second poller of the bot ends the request held open, with Telegram's own answer.
                    const held = holding.get(token);
                    if (held && !held.writableEnded && !held.destroyed) {
                        fake.conflicts.push({ token, at: Date.now() });
                        held.writeHead(409, { 'content-type': 'application/json' });
                        held.end(
                            JSON.stringify({
                                ok: false,
                                error_code: 409,
                                description:
                                    'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
                            })
                        );
                    }
                    holding.set(token, res);
                    res.on('close', () => {
                        if (holding.get(token) === res) holding.delete(token);
                    });
                    const updates = await getUpdates(token, Number(params.offset ?? 0), Number(params.timeout ?? 0));
                    if (holding.get(token) === res) holding.delete(token);
                    if (!res.writableEnded && !res.destroyed) json(200, { ok: true, result: updates });
                    return;
                }
                case 'answercallbackquery':
                    fake.answers.push(params as FakeTelegram['answers'][number]);
                    return json(200, { ok: true, result: true });
                case 'editmessagereplymarkup':
                    fake.edits.push(params as FakeTelegram['edits'][number]);
                    return json(200, { ok: true, result: { message_id: params.message_id } });
            }
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
    fake.close = () =>
        new Promise<void>((r) => {
            // Held getUpdates requests would keep the server open.
            server.closeAllConnections();
            server.close(() => r());
        });
    return fake;
}
