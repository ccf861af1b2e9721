import { sendMessage, TelegramError } from '../../clients/telegram';
import { buildDigest } from '../digest';
import { deliveryNoticeHtml } from '../delivery-notice';
import { isDeliveryNotice } from '../record';
import { escapeHtml, formatNotification, utc } from '../format';
import { formatDuration } from '../../../common/duration';
import { probeHttp } from './common';
import { setting } from './settings';
import type { ChannelConfig, ChannelDefinition } from './types';

// Bot tokens look like `<bot id>:<secret>`; nothing outside this alphabet may reach the URL path they travel in.
const TOKEN = /^[A-Za-z0-9:_-]{3,256}$/;
// A numeric chat id (groups are negative) or a public @username.
const CHAT = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/;

function check(config: ChannelConfig): Record<string, string> {
    const errors: Record<string, string> = {};
    const token = setting(config, 'bot_token');
    if (token && !TOKEN.test(token))
        errors.bot_token = 'Bot token may only hold letters, digits, ":", "_" and "-" (as BotFather gives it)';
    const chat = setting(config, 'chat_id');
    if (chat && !CHAT.test(chat)) errors.chat_id = 'Chat ID must be a number (e.g. -1001234567890) or an @username';
    const topic = setting(config, 'topic_id');
    if (topic && !/^\d{1,12}$/.test(topic)) errors.topic_id = 'Topic ID must be a whole number';
    return errors;
}

/** Telegram HTML (parse_mode HTML): the texts of spec §3, user text escaped. */
export const telegram: ChannelDefinition<string> = {
    type: 'telegram',
    // Telegram lets a bot post about 20 messages a minute into one group; beyond that it answers 429 for minutes.
    // It refuses a text over 4096 characters (counted after entity parsing); the margin covers counting differences.
    limits: { perMinute: 20, maxLength: 4000 },
    check,
    destination: (ctx) => `telegram ${ctx.apiUrls.telegram}`,
    render(record) {
        if (record.kind === 'test') {
            return `<b>Node Monitor</b>: test message for notification channel "${escapeHtml(record.channelName)}". Alerts will arrive here.`;
        }
        if (isDeliveryNotice(record)) return deliveryNoticeHtml(record);
        const text = formatNotification(record.subject, record, record.at);
        const still = record.stillFailing;
        return still
            ? `${text}\nStill failing since ${utc(record.since)} (${formatDuration(still.at - record.since)} so far)`
            : text;
    },
    renderText: (html) => html,
    renderDigest(lines) {
        const digest = buildDigest(lines, this.limits.maxLength);
        return { message: digest.text, count: digest.rowIds.length };
    },
    async send(ctx, config, text) {
        try {
            await sendMessage(ctx.http, ctx.apiUrls.telegram, setting(config, 'bot_token'), {
                chat_id: setting(config, 'chat_id'),
                text,
                parse_mode: 'HTML',
                ...(config.topic_id ? { message_thread_id: Number(config.topic_id) } : {}),
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
