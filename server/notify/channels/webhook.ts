import { createHmac } from 'node:crypto';
import { plain } from '../format';
import { messageOf, textOf } from '../message';
import {
    isDeliveryNotice,
    isProbeNotice,
    isServerGroup,
    type NotificationRecord,
    type ServerGroupRecord,
} from '../record';
import { classifyStatus, probeHttp, retryAfterHeader, unreachable } from './common';
import { setting } from './settings';
import type { ChannelConfig, ChannelDefinition } from './types';

/** The documented body (docs/webhook.md): version 1. */
export interface WebhookBody {
    version: 1;
    kind:
        | 'alert'
        | 'reminder'
        | 'recovery'
        | 'flapping'
        | 'chain_stalled'
        | 'chain_resumed'
        | 'upgrade_scheduled'
        | 'upgrade_height_reached'
        | 'warning'
        | 'warning_cleared'
        | 'channel_failing'
        | 'channel_delivering'
        | 'probe_cut'
        | 'probe_back'
        | 'probe_silent'
        | 'probe_reporting'
        | 'acknowledged'
        | 'server_down'
        | 'server_still_down'
        | 'server_up'
        | 'test';
    incident_id: string | null;
    severity: 'critical' | 'warning' | 'info';
    configuration: { id: number; name: string; chain: string } | null;
    server: { id: number; name: string } | null;
    monitor: { id: number; name: string; type: string } | null;
    message: string | null;
    since: string | null;
    duration_seconds: number | null;
    sent_at: string;
    /** The console's page of the incident, or of the monitor (PUBLIC_URL); absent without PUBLIC_URL. */
    url?: string;
    /**
     * On server_down, server_still_down and server_up only: the monitors it stands for, each with its incident and
     * message (`incident_id` is then the first of them, `monitor` null).
     */
    monitors?: { id: number; name: string; type: string; incident_id: string; message: string | null }[];
    /** On an alert that follows a warning: the warning's incident_id, which it ends (no warning_cleared follows). */
    ends_incident_id?: string;
    /** On the delivery notices only: the channel the outbox could not deliver to, and its company. */
    channel?: { id: number; name: string; type: string; company: { id: number; name: string } };
    /** On the probe notices only: the location whose probe lost its network or stopped reporting. */
    location?: string;
}

export const SIGNATURE_HEADER = 'X-Node-Monitor-Signature';
/** Headers the sender sets itself: extra headers may not replace them. */
const RESERVED = [
    'content-type',
    'content-length',
    'host',
    'transfer-encoding',
    'connection',
    'x-node-monitor-signature',
];
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`: a receiver recomputes it and refuses old `t`. */
export function signature(secret: string, rawBody: string, unixSeconds: number): string {
    const mac = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
    return `t=${unixSeconds},v1=${mac}`;
}

function check(config: ChannelConfig): Record<string, string> {
    const errors: Record<string, string> = {};
    const raw = setting(config, 'url');
    if (raw) {
        let ok = false;
        try {
            ok = ['http:', 'https:'].includes(new URL(raw).protocol);
        } catch {
            ok = false;
        }
        if (!ok) errors.url = 'URL must be an http(s) URL';
    }
    const headers = config.headers;
    if (typeof headers === 'object') {
        for (const [name, value] of Object.entries(headers)) {
            if (!TOKEN.test(name) || RESERVED.includes(name.toLowerCase()) || /[\r\n\0]/.test(value)) {
                errors.headers = `Header "${name.slice(0, 64)}" cannot be sent (an invalid or reserved name, or a line break in its value)`;
                break;
            }
        }
    }
    return errors;
}

const KINDS: Record<NotificationRecord['kind'], WebhookBody['kind']> = {
    alert: 'alert',
    reminder: 'reminder',
    recovery: 'recovery',
    flapping: 'flapping',
    'chain-stalled': 'chain_stalled',
    'chain-resumed': 'chain_resumed',
    'upgrade-notice': 'upgrade_scheduled',
    'upgrade-height': 'upgrade_height_reached',
    warning: 'warning',
    'warning-cleared': 'warning_cleared',
    acknowledged: 'acknowledged',
};

const GROUP_KINDS: Record<ServerGroupRecord['kind'], WebhookBody['kind']> = {
    'server-down': 'server_down',
    'server-still-down': 'server_still_down',
    'server-up': 'server_up',
};

/** The body without `sent_at`, which is stamped when it is sent (a retry is signed anew). */
type Unsent = Omit<WebhookBody, 'sent_at'>;

export const webhook: ChannelDefinition<Unsent> = {
    type: 'webhook',
    limits: { perMinute: 120, maxLength: 100_000 },
    digests: false,
    check,
    destination: (_ctx, config) => new URL(setting(config, 'url')).origin,
    render(record) {
        if (record.kind === 'test') {
            return {
                version: 1,
                kind: 'test',
                incident_id: null,
                severity: 'info',
                configuration: null,
                server: null,
                monitor: null,
                message: `Test message for notification channel "${record.channelName}"`,
                since: null,
                duration_seconds: null,
            };
        }
        if (isDeliveryNotice(record)) {
            const failing = record.kind === 'channel-failing';
            return {
                version: 1,
                kind: failing ? 'channel_failing' : 'channel_delivering',
                incident_id: record.incidentId,
                severity: failing ? 'critical' : 'info',
                configuration: null,
                server: null,
                monitor: null,
                message: textOf(messageOf(record)).join('\n'),
                since: new Date(record.since).toISOString(),
                duration_seconds: failing ? null : Math.round((record.at - record.since) / 1000),
                channel: { ...record.channel, company: record.company },
            };
        }
        if (isProbeNotice(record)) {
            const ended = record.kind === 'probe-back' || record.kind === 'probe-reporting';
            return {
                version: 1,
                kind: record.kind.replace('-', '_') as WebhookBody['kind'],
                incident_id: record.incidentId,
                severity: ended ? 'info' : 'warning',
                configuration: null,
                server: null,
                monitor: null,
                message: textOf(messageOf(record)).join('\n'),
                since: new Date(record.since).toISOString(),
                duration_seconds: ended ? Math.round((record.at - record.since) / 1000) : null,
                location: record.location,
            };
        }
        if (isServerGroup(record)) {
            const down = record.kind !== 'server-up';
            const lead = record.members[0];
            return {
                version: 1,
                kind: GROUP_KINDS[record.kind],
                incident_id: lead?.incidentId ?? null,
                severity: 'critical',
                configuration: { ...record.configuration },
                server: { ...record.server },
                monitor: null,
                message: messageOf(record).name,
                since: new Date(record.since).toISOString(),
                duration_seconds: down ? null : Math.round((record.at - record.since) / 1000),
                monitors: record.members.map((m) => ({
                    id: m.subject.id,
                    name: m.subject.name,
                    type: m.subject.type,
                    incident_id: m.incidentId,
                    message: m.message,
                })),
                ...(record.url ? { url: record.url } : {}),
            };
        }
        const s = record.subject;
        const ended =
            record.kind === 'recovery' || record.kind === 'chain-resumed' || record.kind === 'warning-cleared';
        return {
            version: 1,
            kind: KINDS[record.kind],
            incident_id: record.incidentId,
            severity: record.severity,
            configuration: { id: s.configuration.id, name: s.configuration.name, chain: s.configuration.chain },
            server: s.server ? { id: s.server.id, name: s.server.name } : null,
            monitor: { id: s.id, name: s.name, type: s.type },
            message: record.message,
            since: new Date(record.since).toISOString(),
            duration_seconds: ended ? Math.round((record.durationMs ?? record.at - record.since) / 1000) : null,
            ...(record.url ? { url: record.url } : {}),
            ...(record.endsWarning ? { ends_incident_id: record.endsWarning } : {}),
        };
    },
    renderText: (html) => ({
        version: 1,
        kind: 'alert',
        incident_id: null,
        severity: 'critical',
        configuration: null,
        server: null,
        monitor: null,
        message: plain(html),
        since: null,
        duration_seconds: null,
    }),
    renderDigest(lines) {
        const [first] = lines;
        return { message: this.renderText(first?.text ?? ''), count: 1 };
    },
    async send(ctx, config, unsent) {
        const now = Date.now();
        const raw = JSON.stringify({ ...unsent, sent_at: new Date(now).toISOString() } satisfies WebhookBody);
        const extra = typeof config.headers === 'object' ? config.headers : {};
        let res: Awaited<ReturnType<typeof ctx.http.request>>;
        try {
            res = await ctx.http.request(setting(config, 'url'), {
                method: 'POST',
                headers: {
                    ...extra,
                    'content-type': 'application/json',
                    [SIGNATURE_HEADER.toLowerCase()]: signature(setting(config, 'secret'), raw, Math.floor(now / 1000)),
                },
                body: raw,
                timeoutMs: 10_000,
                maxBodyBytes: 16 * 1024,
                truncateBody: true,
            });
        } catch (err) {
            return unreachable(err, 'The webhook');
        }
        if (res.status >= 200 && res.status < 300) return { outcome: 'accepted' };
        // The receiver's body is never shown: it is whatever the URL's owner chose to answer.
        const error = `The webhook answered HTTP ${res.status}`;
        return classifyStatus(res.status, error, retryAfterHeader(res.headers));
    },
    probe: (ctx, config) => probeHttp(ctx, setting(config, 'url')),
};
