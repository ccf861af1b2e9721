import { plain } from '../format';
import { LINK_TEXT, type Message, messageOf, textOf, titleOf } from '../message';
import { probeHttp, classifyStatus, clip, plainDigest, retryAfterHeader, unreachable } from './common';
import { setting } from './settings';
import type { ChannelConfig, ChannelDefinition } from './types';

/** Execute-webhook body: https://discord.com/developers/docs/resources/webhook#execute-webhook */
interface DiscordMessage {
    content?: string;
    embeds: { title: string; description: string; color: number; url?: string }[];
    allowed_mentions: { parse: string[] };
}

const PATH = /^\/api(\/v\d+)?\/webhooks\/\d{1,20}\/[A-Za-z0-9_-]{1,200}\/?$/;
const COLOURS: Record<Message['tone'], number> = {
    bad: 0xe74c3c,
    unsettled: 0xe67e22,
    // Amber: a warning asks for a look, not for action now.
    warning: 0xf1c40f,
    good: 0x2ecc71,
    info: 0x3498db,
};

/** Discord markdown: user text must not turn into formatting or links. */
const escapeMarkdown = (text: string) =>
    text
        .split('\n')
        .map((line) => line.replace(/([\\*_~`|[\]])/g, '\\$1').replace(/^(\s*)([>#-])/, '$1\\$2'))
        .join('\n');

function check(config: ChannelConfig): Record<string, string> {
    const raw = setting(config, 'webhook_url');
    if (!raw) return {};
    let url: URL;
    try {
        url = new URL(raw);
    } catch {
        return { webhook_url: 'Webhook URL must be a URL like https://discord.com/api/webhooks/{id}/{token}' };
    }
    if (!['http:', 'https:'].includes(url.protocol) || !PATH.test(url.pathname)) {
        return { webhook_url: 'Webhook URL must be a URL like https://discord.com/api/webhooks/{id}/{token}' };
    }
    return {};
}

const embed = (title: string, body: string, color: number, url?: string): DiscordMessage => ({
    // Discord caps an embed's title at 256 characters and its description at 4096; `url` makes the title a link.
    embeds: [
        {
            title: clip(title, 256),
            description: url ? `${clip(body, 3500)}\n[${LINK_TEXT}](${url})` : clip(body, 4000),
            color,
            ...(url ? { url } : {}),
        },
    ],
    allowed_mentions: { parse: [] },
});

export const discord: ChannelDefinition<DiscordMessage> = {
    type: 'discord',
    // A webhook may post 5 requests per 2 seconds, and about 30 a minute into one channel.
    limits: { perMinute: 30, maxLength: 4000 },
    check,
    destination: (_ctx, config) => new URL(setting(config, 'webhook_url')).origin,
    render(record) {
        const m = messageOf(record);
        return embed(titleOf(m), textOf(m).map(escapeMarkdown).join('\n'), COLOURS[m.tone], m.url);
    },
    renderText: (html) => {
        const [first = '', ...rest] = html.split('\n');
        return embed(plain(first), rest.map((l) => escapeMarkdown(plain(l))).join('\n'), COLOURS.bad);
    },
    renderDigest(lines) {
        const d = plainDigest(lines, this.limits.maxLength);
        return { message: embed(d.heading, escapeMarkdown(d.body), COLOURS.bad), count: d.count };
    },
    async send(ctx, config, message) {
        let res: Awaited<ReturnType<typeof ctx.http.request>>;
        try {
            res = await ctx.http.request(setting(config, 'webhook_url'), {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify(message),
                timeoutMs: 10_000,
                maxBodyBytes: 64 * 1024,
                truncateBody: true,
            });
        } catch (err) {
            return unreachable(err, 'Discord');
        }
        if (res.status >= 200 && res.status < 300) return { outcome: 'accepted' };
        let answer: { message?: unknown; retry_after?: unknown } = {};
        try {
            answer = JSON.parse(res.text) as typeof answer;
        } catch {
            // Not Discord's JSON (a proxy's page): the status says enough.
        }
        const error =
            typeof answer.message === 'string' && answer.message
                ? `Discord: ${answer.message}`
                : `Discord answered HTTP ${res.status}`;
        // retry_after is in seconds (a float) in the JSON body; the header rounds it.
        const after = typeof answer.retry_after === 'number' ? answer.retry_after : retryAfterHeader(res.headers);
        return classifyStatus(res.status, error, after === undefined ? undefined : Math.ceil(after));
    },
    probe: (ctx, config) => probeHttp(ctx, setting(config, 'webhook_url')),
};
