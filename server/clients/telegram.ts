import { HttpError, type HttpClient, redactToken } from './http';

/**
 * Telegram Bot API, wire format only (https://core.telegram.org/bots/api#sendmessage). The token travels in the
 * URL path, so nothing here ever puts the URL into an error: failures carry Telegram's own description or the
 * egress client's reason, which names no URL.
 */

export interface SendMessageParams {
    chat_id: string;
    text: string;
    parse_mode?: 'HTML';
    message_thread_id?: number;
}

/** A refusal by Telegram (status = its error_code) or a failure to reach it (status 0). */
export class TelegramError extends Error {
    constructor(
        readonly status: number,
        readonly description: string,
        /** Seconds to wait before the next request to this chat (429). */
        readonly retryAfter?: number,
        /** The group became a supergroup with this chat id (400). */
        readonly migrateToChatId?: number
    ) {
        super(description);
        this.name = 'TelegramError';
    }
}

interface BotApiAnswer {
    ok?: boolean;
    result?: { message_id?: number };
    error_code?: number;
    description?: string;
    parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

export async function sendMessage(
    http: HttpClient,
    apiUrl: string,
    token: string,
    params: SendMessageParams,
    opts: { timeoutMs?: number; signal?: AbortSignal } = {}
): Promise<{ ok: true; message_id: number }> {
    let res: Awaited<ReturnType<HttpClient['request']>>;
    try {
        res = await http.request(`${apiUrl.replace(/\/+$/, '')}/bot${token}/sendMessage`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify(params),
            timeoutMs: opts.timeoutMs ?? 10_000,
            signal: opts.signal,
            maxBodyBytes: 64 * 1024,
        });
    } catch (err) {
        const reason = err instanceof HttpError ? err.reason : 'failed';
        throw new TelegramError(0, `Telegram could not be reached: the Bot API ${redactToken(reason, token)}`);
    }
    let answer: BotApiAnswer = {};
    try {
        answer = JSON.parse(res.text) as BotApiAnswer;
    } catch {
        // A proxy or an outage page: no description to pass on, the status says enough.
    }
    if (res.status === 200 && answer.ok === true) {
        return { ok: true, message_id: Number(answer.result?.message_id ?? 0) };
    }
    const description =
        typeof answer.description === 'string' && answer.description !== ''
            ? redactToken(answer.description, token)
            : `Telegram answered HTTP ${res.status}`;
    const retryAfter = answer.parameters?.retry_after;
    const migrate = answer.parameters?.migrate_to_chat_id;
    throw new TelegramError(
        Number(answer.error_code ?? res.status),
        description,
        typeof retryAfter === 'number' ? retryAfter : undefined,
        typeof migrate === 'number' ? migrate : undefined
    );
}
