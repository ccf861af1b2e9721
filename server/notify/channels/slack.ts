import { plain } from '../format';
import { LINK_TEXT, messageOf, textOf, titleOf } from '../message';
import { classifyStatus, clip, plainDigest, probeHttp, retryAfterHeader, unreachable } from './common';
import { setting } from './settings';
import type { ChannelConfig, ChannelDefinition } from './types';

/** The error codes Slack's incoming webhooks answer with (api.slack.com/messaging/webhooks#handling_errors). */
const SLACK_ERRORS = new Set([
    'invalid_payload',
    'user_not_found',
    'channel_not_found',
    'channel_is_archived',
    'action_prohibited',
    'posting_to_general_channel_denied',
    'too_many_attachments',
    'no_service',
    'no_service_id',
    'no_team',
    'team_disabled',
    'invalid_token',
    'no_text',
    'missing_text_or_fallback_or_attachments',
    'rate_limited',
    'request_timeout',
    'internal_error',
]);

/** Incoming-webhook body: `text` is the notification fallback, `blocks` what the channel shows. */
interface SlackMessage {
    text: string;
    blocks: (
        | { type: 'header'; text: { type: 'plain_text'; text: string } }
        | { type: 'section'; text: { type: 'mrkdwn'; text: string } }
    )[];
}

/** Slack's mrkdwn needs exactly these three escaped; the rest of user text stays as typed. */
const escapeMrkdwn = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function check(config: ChannelConfig): Record<string, string> {
    const raw = setting(config, 'webhook_url');
    if (!raw) return {};
    try {
        if (['http:', 'https:'].includes(new URL(raw).protocol)) return {};
    } catch {
        // Falls through to the error.
    }
    return { webhook_url: 'Webhook URL must be an http(s) URL like https://hooks.slack.com/services/…' };
}

const message = (title: string, body: string, url?: string): SlackMessage => ({
    text: clip(`${title}\n${body}${url ? `\n${url}` : ''}`, 3000),
    blocks: [
        // A header holds at most 150 characters of plain text, a section 3000 of mrkdwn.
        { type: 'header', text: { type: 'plain_text', text: clip(title, 150) } },
        { type: 'section', text: { type: 'mrkdwn', text: clip(escapeMrkdwn(body) || ' ', 3000) } },
        ...(url
            ? [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text: `<${url}|${LINK_TEXT}>` } }]
            : []),
    ],
});

export const slack: ChannelDefinition<SlackMessage> = {
    type: 'slack',
    // Incoming webhooks allow about one message per second, with short bursts.
    limits: { perMinute: 60, maxLength: 3000 },
    check,
    destination: (_ctx, config) => new URL(setting(config, 'webhook_url')).origin,
    render(record) {
        const m = messageOf(record);
        // Blocks have no colour: the warning tone (amber in Discord) is shown by the sign in its header.
        return message(`${m.tone === 'warning' ? '⚠️ ' : ''}${titleOf(m)}`, textOf(m).join('\n'), m.url);
    },
    renderText: (html) => {
        const [first = '', ...rest] = html.split('\n');
        return message(plain(first), rest.map(plain).join('\n'));
    },
    renderDigest(lines) {
        const d = plainDigest(lines, this.limits.maxLength - 100);
        return { message: message(d.heading, d.body), count: d.count };
    },
    async send(ctx, config, body) {
        let res: Awaited<ReturnType<typeof ctx.http.request>>;
        try {
            res = await ctx.http.request(setting(config, 'webhook_url'), {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify(body),
                timeoutMs: 10_000,
                maxBodyBytes: 16 * 1024,
                truncateBody: true,
            });
        } catch (err) {
            return unreachable(err, 'Slack');
        }
        if (res.status >= 200 && res.status < 300) return { outcome: 'accepted' };
        // Slack answers its errors as one plain-text code; only those are named, never any other body.
        const said = res.text.trim();
        const error = SLACK_ERRORS.has(said) ? `Slack: ${said}` : `Slack answered HTTP ${res.status}`;
        return classifyStatus(res.status, error, retryAfterHeader(res.headers));
    },
    probe: (ctx, config) => probeHttp(ctx, setting(config, 'webhook_url')),
};
