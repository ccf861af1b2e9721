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
    reply_markup?: InlineKeyboard;
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
    result?: unknown;
    error_code?: number;
    description?: string;
    parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/** An inline keyboard (https://core.telegram.org/bots/api#inlinekeyboardmarkup): rows of callback buttons. */
export interface InlineKeyboard {
    inline_keyboard: { text: string; callback_data: string }[][];
}

/** One Bot API method call; its `result`, or a TelegramError carrying Telegram's own description. */
async function call(
    http: HttpClient,
    apiUrl: string,
    token: string,
    method: string,
    params: object,
    opts: { timeoutMs?: number; signal?: AbortSignal } = {}
): Promise<unknown> {
    let res: Awaited<ReturnType<HttpClient['request']>>;
    try {
        res = await http.request(`${apiUrl.replace(/\/+$/, '')}/bot${token}/${method}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify(params),
            timeoutMs: opts.timeoutMs ?? 10_000,
            signal: opts.signal,
            maxBodyBytes: 1024 * 1024,
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
    if (res.status === 200 && answer.ok === true) return answer.result;
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

export async function sendMessage(
    http: HttpClient,
    apiUrl: string,
    token: string,
    params: SendMessageParams,
    opts: { timeoutMs?: number; signal?: AbortSignal } = {}
): Promise<{ ok: true; message_id: number }> {
    const result = (await call(http, apiUrl, token, 'sendMessage', params, opts)) as { message_id?: number } | null;
    return { ok: true, message_id: Number(result?.message_id ?? 0) };
}

/** The part of an Update (https://core.telegram.org/bots/api#update) the console asks for: button presses. */
export interface CallbackQuery {
    id: string;
    from: { id: number; username?: string; first_name?: string };
    message?: { message_id: number; chat: { id: number; username?: string } };
    data?: string;
}

export interface Update {
    update_id: number;
    callback_query?: CallbackQuery;
}

/** Long-polls for button presses only; `timeoutSeconds` is how long Telegram holds the request open. */
export async function getUpdates(
    http: HttpClient,
    apiUrl: string,
    token: string,
    offset: number,
    timeoutSeconds: number,
    signal?: AbortSignal
): Promise<Update[]> {
    const params = { offset, timeout: timeoutSeconds, allowed_updates: ['callback_query'] };
    const result = await call(http, apiUrl, token, 'getUpdates', params, {
        timeoutMs: (timeoutSeconds + 10) * 1000,
        signal,
    });
    // Anything but a list is a server that does not serve getUpdates: a failure, so that polling backs off.
    if (!Array.isArray(result)) throw new TelegramError(502, 'Telegram answered getUpdates without a list of updates');
    return result as Update[];
}

export async function answerCallbackQuery(
    http: HttpClient,
    apiUrl: string,
    token: string,
    callbackQueryId: string,
    text: string
): Promise<void> {
    // Telegram shows at most 200 characters of the answer.
    await call(http, apiUrl, token, 'answerCallbackQuery', {
        callback_query_id: callbackQueryId,
        text: text.slice(0, 200),
        show_alert: true,
    });
}

export async function editMessageReplyMarkup(
    http: HttpClient,
    apiUrl: string,
    token: string,
    params: { chat_id: number; message_id: number; reply_markup: InlineKeyboard }
): Promise<void> {
    await call(http, apiUrl, token, 'editMessageReplyMarkup', params);
}
