import { sendMessage } from '../../clients/telegram';
import type { ChannelConfig, Notifier, ValidateResult } from './index';

// Bot tokens look like `<bot id>:<secret>`; nothing outside this alphabet may reach the URL path they travel in.
const TOKEN = /^[A-Za-z0-9:_-]{3,256}$/;
// A numeric chat id (groups are negative) or a public @username.
const CHAT = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/;
const FIELDS = new Set(['bot_token', 'chat_id', 'topic_id']);

const text = (v: unknown): string | undefined =>
    typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;

function validate(raw: unknown): ValidateResult {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
        return { ok: false, errors: { configuration_object: 'configuration_object must be a JSON object' } };
    }
    const input = raw as Record<string, unknown>;
    const errors: Record<string, string> = {};
    for (const key of Object.keys(input)) if (!FIELDS.has(key)) errors[key] = 'Unknown setting for telegram';
    const token = text(input.bot_token);
    if (!token) errors.bot_token = 'Please enter a bot token!';
    else if (!TOKEN.test(token))
        errors.bot_token = 'Bot token may only hold letters, digits, ":", "_" and "-" (as BotFather gives it)';
    const chat = text(input.chat_id);
    if (!chat) errors.chat_id = 'Please enter a chat ID!';
    else if (!CHAT.test(chat)) errors.chat_id = 'Chat ID must be a number (e.g. -1001234567890) or an @username';
    const topic = text(input.topic_id ?? '');
    if (topic && !/^\d{1,12}$/.test(topic)) errors.topic_id = 'Topic ID must be a whole number';
    if (Object.keys(errors).length > 0 || !token || !chat) return { ok: false, errors };
    const config: ChannelConfig = { bot_token: token, chat_id: chat };
    if (topic) config.topic_id = topic;
    return { ok: true, config };
}

export const telegram: Notifier = {
    secretFields: ['bot_token'],
    validate,
    async send(ctx, config: ChannelConfig, message) {
        const token = config.bot_token ?? '';
        await sendMessage(ctx.http, ctx.telegramApiUrl, token, {
            chat_id: config.chat_id ?? '',
            text: message,
            parse_mode: 'HTML',
            ...(config.topic_id ? { message_thread_id: Number(config.topic_id) } : {}),
        });
    },
};
