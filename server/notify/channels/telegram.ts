import { type InlineKeyboard, sendMessage, TelegramError } from '../../clients/telegram';
import { buildDigest } from '../digest';
import { escapeHtml, telegramHtml } from '../format';
import { type MessageActions, messageOf } from '../message';
import { probeHttp } from './common';
import { setting } from './settings';
import { signButton } from '../telegram/callback-data';
import type { ChannelConfig, ChannelDefinition, NotifyContext } from './types';

// Bot tokens look like `<bot id>:<secret>`; nothing outside this alphabet may reach the URL path they travel in.
const TOKEN = /^[A-Za-z0-9:_-]{3,256}$/;
// A numeric chat id (groups are negative) or a public @username.
const CHAT = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/;
const USER_IDS = /^\d{1,20}(\s*,\s*\d{1,20}){0,49}$/;

function check(config: ChannelConfig): Record<string, string> {
    const errors: Record<string, string> = {};
    const token = setting(config, 'bot_token');
    if (token && !TOKEN.test(token))
        errors.bot_token = 'Bot token may only hold letters, digits, ":", "_" and "-" (as BotFather gives it)';
    const chat = setting(config, 'chat_id');
    if (chat && !CHAT.test(chat)) errors.chat_id = 'Chat ID must be a number (e.g. -1001234567890) or an @username';
    const topic = setting(config, 'topic_id');
    if (topic && !/^\d{1,12}$/.test(topic)) errors.topic_id = 'Topic ID must be a whole number';
    const users = setting(config, 'allowed_user_ids');
    if (users && !USER_IDS.test(users))
        errors.allowed_user_ids = 'Allowed user IDs must be Telegram user ids (numbers) separated by commas';
    return errors;
}

/** A message: its HTML text, and for a problem what its Acknowledge and Silence buttons act on. */
export interface TelegramMessage {
    text: string;
    buttons?: MessageActions;
}

/** The buttons, when the channel allows actions (`allow_actions`, on unless turned off) and they can be signed. */
function keyboard(ctx: NotifyContext, config: ChannelConfig, message: TelegramMessage): InlineKeyboard | undefined {
    const key = ctx.actionKey;
    const target = message.buttons;
    if (!target || !key || config.allow_actions === false) return undefined;
    const chat = setting(config, 'chat_id');
    const issuedAt = Date.now();
    const { incidentId } = target;
    const [onAck, onSilence, targetId] =
        'serverId' in target
            ? (['ack-server', 'silence-server', target.serverId] as const)
            : (['ack', 'silence', target.monitorId] as const);
    const ack = signButton(key, chat, { action: onAck, incidentId, targetId, issuedAt });
    const silence = signButton(key, chat, { action: onSilence, incidentId, targetId, issuedAt });
    if (!ack || !silence) return undefined;
    return {
        inline_keyboard: [
            [
                { text: 'Acknowledge', callback_data: ack },
                { text: 'Silence 1 h', callback_data: silence },
            ],
        ],
    };
}

/** Telegram HTML (parse_mode HTML): the texts of docs/spec.md §3, user text escaped. */
export const telegram: ChannelDefinition<TelegramMessage> = {
    type: 'telegram',
    // Telegram lets a bot post about 20 messages a minute into one group; beyond that it answers 429 for minutes.
    // It refuses a text over 4096 characters (counted after entity parsing); the margin covers counting differences.
    limits: { perMinute: 20, maxLength: 4000 },
    check,
    destination: (ctx) => `telegram ${ctx.apiUrls.telegram}`,
    render(record) {
        if (record.kind === 'test') {
            return {
                text: `<b>Node Monitor</b>: test message for notification channel "${escapeHtml(record.channelName)}". Alerts will arrive here.`,
            };
        }
        const m = messageOf(record);
        return { text: telegramHtml(m), ...(m.actions ? { buttons: m.actions } : {}) };
    },
    renderText: (html) => ({ text: html }),
    renderDigest(lines) {
        const digest = buildDigest(lines, this.limits.maxLength);
        return { message: { text: digest.text }, count: digest.rowIds.length };
    },
    async send(ctx, config, message) {
        const markup = keyboard(ctx, config, message);
        try {
            await sendMessage(ctx.http, ctx.apiUrls.telegram, setting(config, 'bot_token'), {
                chat_id: setting(config, 'chat_id'),
                text: message.text,
                parse_mode: 'HTML',
                ...(config.topic_id ? { message_thread_id: Number(config.topic_id) } : {}),
                ...(markup ? { reply_markup: markup } : {}),
            });
            return { outcome: 'accepted' };
        } catch (err) {
            if (!(err instanceof TelegramError)) throw err;
            if (err.retryAfter !== undefined)
                return { outcome: 'retry', afterSeconds: err.retryAfter, error: err.description };
            if (err.status === 0) return { outcome: 'transient', error: err.description, unreachable: true };
            if ([400, 401, 403, 404].includes(err.status)) return { outcome: 'permanent', error: err.description };
            return { outcome: 'transient', error: err.description };
        }
    },
    probe: (ctx) => probeHttp(ctx, ctx.apiUrls.telegram),
};
