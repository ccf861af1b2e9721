import { createHash } from 'node:crypto';
import { plain } from '../format';
import { LINK_TEXT, messageOf, titleOf } from '../message';
import { isDeliveryNotice, isProbeNotice, isServerGroup } from '../record';
import { classifyStatus, clip, probeHttp, retryAfterHeader, unreachable } from './common';
import { setting } from './settings';
import type { ChannelConfig, ChannelDefinition, NotifyContext, SendResult } from './types';

/** Events API v2: https://developer.pagerduty.com/docs/events-api-v2/trigger-events/ */
interface PagerDutyEvent {
    event_action: 'trigger' | 'acknowledge' | 'resolve';
    dedup_key: string;
    /** Shown on the PagerDuty incident: the console's page of it (PUBLIC_URL). */
    links?: { href: string; text: string }[];
    payload?: {
        summary: string;
        source: string;
        severity: PdSeverity;
        custom_details: Record<string, string | null>;
    };
}

type PdSeverity = 'critical' | 'error' | 'warning' | 'info';

/**
 * An event to send, and the warning incidents to resolve before it: an alert that follows a warning ends it (no
 * warning-cleared follows), and PagerDuty would otherwise keep the warning's incident open for good.
 */
type PagerDutyMessage = PagerDutyEvent & { resolveFirst?: string[] };
const PD_SEVERITIES: readonly string[] = ['critical', 'error', 'warning', 'info'];

function check(config: ChannelConfig): Record<string, string> {
    const errors: Record<string, string> = {};
    const key = setting(config, 'routing_key');
    if (key && !/^[A-Za-z0-9_-]{8,128}$/.test(key))
        errors.routing_key = 'Routing key must be the 32-character integration key of an Events API v2 integration';
    const map = config.severity_map;
    if (typeof map === 'object') {
        for (const [from, to] of Object.entries(map)) {
            if (!['critical', 'warning'].includes(from) || !PD_SEVERITIES.includes(to)) {
                errors.severity_map = 'Severity map maps critical or warning to one of critical, error, warning, info';
            }
        }
    }
    return errors;
}

const events = (ctx: { apiUrls: { pagerduty: string } }) => `${ctx.apiUrls.pagerduty.replace(/\/+$/, '')}/v2/enqueue`;

/** The event's routing key is added at send time: it is a setting, not part of the rendered message. */
export const pagerduty: ChannelDefinition<PagerDutyMessage> = {
    type: 'pagerduty',
    // The Events API accepts about 120 events a minute per integration key.
    limits: { perMinute: 120, maxLength: 1024 },
    digests: false,
    check,
    destination: (ctx) => new URL(events(ctx)).origin,
    render(record): PagerDutyMessage | null {
        if (record.kind === 'test') {
            return {
                event_action: 'trigger',
                dedup_key: `node-monitor-test-${record.at}`,
                payload: {
                    summary: `Node Monitor: test event for notification channel "${clip(record.channelName, 200)}"`,
                    source: 'Node Monitor',
                    severity: 'info',
                    custom_details: { message: 'Alerts will arrive here. Resolve this test incident.' },
                },
            };
        }
        if (isDeliveryNotice(record)) {
            if (record.kind === 'channel-delivering') return { event_action: 'resolve', dedup_key: record.incidentId };
            return {
                event_action: 'trigger',
                dedup_key: record.incidentId,
                payload: {
                    summary: clip(`${titleOf(messageOf(record))}: ${record.lastError ?? 'no error given'}`, 1024),
                    source: 'Node Monitor',
                    severity: 'error',
                    custom_details: {
                        company: record.company.name,
                        channel: `${record.channel.name} (${record.channel.type})`,
                        since: new Date(record.since).toISOString(),
                        last_error: record.lastError,
                    },
                },
            };
        }
        // A probe's own trouble is no node's: it is told in the chats and pages no one.
        if (isProbeNotice(record)) return null;
        // A server's group is one page, keyed by the group: its SERVER UP (or the last recovery of its incidents)
        // resolves it, whichever of its monitors recovered first.
        if (isServerGroup(record)) {
            switch (record.kind) {
                case 'server-up':
                    return { event_action: 'resolve', dedup_key: record.group };
                // Its reminders are not sent, as a monitor's are not: the page is open and PagerDuty re-notifies.
                case 'server-still-down':
                    return null;
                case 'server-down':
                    break;
                default:
                    return record satisfies never;
            }
            const m = messageOf(record);
            const ended = record.members.flatMap((r) => (r.endsWarning ? [r.endsWarning] : []));
            return {
                event_action: 'trigger',
                dedup_key: record.group,
                ...(ended.length ? { resolveFirst: ended } : {}),
                ...(record.url ? { links: [{ href: record.url, text: LINK_TEXT }] } : {}),
                payload: {
                    summary: clip(titleOf(m), 1024),
                    source: record.server.name,
                    severity: 'critical',
                    custom_details: {
                        configuration: record.configuration.name,
                        chain: record.configuration.chain,
                        server: record.server.name,
                        monitors: record.members
                            .map((r) => `${r.subject.name} (${r.subject.type}): ${r.message ?? 'no message'}`)
                            .join('\n'),
                        since: new Date(record.since).toISOString(),
                        incident_ids: record.members.map((r) => r.incidentId).join(', '),
                    },
                },
            };
        }
        // PagerDuty re-notifies on its own: reminders are not sent. Upgrade notices inform and page no one.
        if (record.kind === 'reminder' || record.kind === 'upgrade-notice' || record.kind === 'upgrade-height')
            return null;
        // A warning is its own PagerDuty incident (severity warning, its own id as dedup_key), resolved by its clear.
        if (record.kind === 'recovery' || record.kind === 'chain-resumed' || record.kind === 'warning-cleared') {
            return { event_action: 'resolve', dedup_key: record.group ?? record.incidentId };
        }
        // PagerDuty's own acknowledgement of the incident it opened for the alert (same dedup_key, or its group's).
        if (record.kind === 'acknowledged')
            return { event_action: 'acknowledge', dedup_key: record.group ?? record.incidentId };
        const m = messageOf(record);
        const s = record.subject;
        return {
            event_action: 'trigger',
            dedup_key: record.group ?? record.incidentId,
            ...(record.endsWarning ? { resolveFirst: [record.endsWarning] } : {}),
            ...(record.url ? { links: [{ href: record.url, text: LINK_TEXT }] } : {}),
            payload: {
                summary: clip(`${titleOf(m)}: ${record.message ?? 'no message'}`, 1024),
                source: s.server?.name ?? `${s.configuration.name} (${s.configuration.chain})`,
                // Severity is mapped at send time (severity_map); this is the unmapped one.
                severity: record.severity,
                custom_details: {
                    configuration: s.configuration.name,
                    chain: s.configuration.chain,
                    server: s.server?.name ?? null,
                    monitor: `${s.name} (${s.type})`,
                    message: record.message,
                    since: new Date(record.since).toISOString(),
                    incident_id: record.incidentId,
                },
            },
        };
    },
    // A row without its record (written before payloads existed) is keyed by its whole text: sent again it is the
    // same PagerDuty incident, and two messages that begin alike (two monitors' alerts) are two.
    renderText: (html) => ({
        event_action: 'trigger',
        dedup_key: `node-monitor-${createHash('sha256').update(html).digest('base64url')}`,
        payload: {
            summary: clip(plain(html.split('\n', 1)[0] ?? ''), 1024),
            source: 'Node Monitor',
            severity: 'critical',
            custom_details: { message: plain(html) },
        },
    }),
    renderDigest(lines) {
        const [first] = lines;
        return { message: this.renderText(first?.text ?? ''), count: 1 };
    },
    async send(ctx, config, { resolveFirst, ...event }) {
        // Resolving is idempotent at PagerDuty: a retry after the trigger failed resolves again, harmlessly.
        for (const dedup_key of resolveFirst ?? []) {
            const resolved = await post(ctx, config, { event_action: 'resolve', dedup_key });
            if (resolved.outcome !== 'accepted') return resolved;
        }
        return post(ctx, config, event);
    },
    probe: (ctx) => probeHttp(ctx, events(ctx)),
};

async function post(ctx: NotifyContext, config: ChannelConfig, event: PagerDutyEvent): Promise<SendResult> {
    const map = typeof config.severity_map === 'object' ? config.severity_map : {};
    const body: PagerDutyEvent & { routing_key: string } = {
        routing_key: setting(config, 'routing_key'),
        ...event,
        ...(event.payload
            ? {
                  payload: {
                      ...event.payload,
                      severity: (map[event.payload.severity] as PdSeverity | undefined) ?? event.payload.severity,
                  },
              }
            : {}),
    };
    let res: Awaited<ReturnType<typeof ctx.http.request>>;
    try {
        res = await ctx.http.request(events(ctx), {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify(body),
            timeoutMs: 10_000,
            maxBodyBytes: 64 * 1024,
            truncateBody: true,
        });
    } catch (err) {
        return unreachable(err, 'PagerDuty');
    }
    if (res.status === 202 || res.status === 200) return { outcome: 'accepted' };
    let answer: { message?: unknown; errors?: unknown } = {};
    try {
        answer = JSON.parse(res.text) as typeof answer;
    } catch {
        // 429 and 5xx answers may have no JSON body.
    }
    const details = Array.isArray(answer.errors) ? answer.errors.filter((e) => typeof e === 'string') : [];
    const said = typeof answer.message === 'string' ? answer.message : '';
    const error = said
        ? `PagerDuty: ${said}${details.length ? ` (${details.join('; ')})` : ''}`
        : `PagerDuty answered HTTP ${res.status}`;
    return classifyStatus(res.status, error.replaceAll(body.routing_key, '***'), retryAfterHeader(res.headers));
}
