import { formatDuration } from '../../common/duration';
import type { NotificationFacts, NotificationSubject } from './record';

type Notification = NotificationFacts;

/** Telegram's HTML parse mode needs exactly these three escaped; everything user-typed goes through it. */
export function escapeHtml(text: string): string {
    return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export const utc = (ms: number) => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 19)} UTC`;

const HEADINGS: Record<Notification['kind'], string> = {
    alert: '🔴 <b>ALERT</b>',
    reminder: '🔁 <b>STILL FAILING</b>',
    recovery: '✅ <b>RECOVERED</b>',
    flapping: '🔀 <b>FLAPPING</b>',
    'chain-stalled': '⛔ <b>CHAIN STALLED</b>',
    'chain-resumed': '✅ <b>CHAIN RESUMED</b>',
    'upgrade-notice': '📅 <b>UPGRADE SCHEDULED</b>',
    'upgrade-height': '⏸️ <b>UPGRADE HEIGHT REACHED</b>',
    warning: '⚠️ <b>WARNING</b>',
    'warning-cleared': '✅ <b>WARNING CLEARED</b>',
    acknowledged: '👀 <b>ACKNOWLEDGED</b>',
};

const WAS: Partial<Record<Notification['kind'], string>> = {
    'chain-resumed': 'Was stalled',
    'warning-cleared': 'Was in Warning',
};

const isChain = (n: Notification) =>
    n.kind === 'chain-stalled' || n.kind === 'chain-resumed' || n.kind === 'upgrade-height';
/** Notices tell of something planned rather than a problem. */
const isNotice = (n: Notification) => n.kind === 'upgrade-notice' || n.kind === 'upgrade-height';

const heading = (n: Notification) =>
    n.kind === 'reminder' && n.flapping ? '🔀 <b>STILL FLAPPING</b>' : HEADINGS[n.kind];

/** One message names the configuration, chain, server, monitor, what is wrong, since when and, on recovery, how long. */
export function formatNotification(target: NotificationSubject, n: Notification, nowMs: number): string {
    if (n.kind === 'acknowledged') {
        // Short: the alert it answers is just above it in the chat; it names who took it on.
        return [
            `${heading(n)} ${escapeHtml(target.name)}`,
            escapeHtml(n.message ?? 'Acknowledged'),
            `<i>Incident ${escapeHtml(n.incidentId.slice(0, 8))}</i>`,
        ].join('\n');
    }
    const lines = [
        `${heading(n)} ${escapeHtml(isChain(n) ? target.configuration.chain : target.name)}`,
        `Configuration: ${escapeHtml(target.configuration.name)} (${escapeHtml(target.configuration.chain)})`,
        `Server: ${target.server ? escapeHtml(target.server.name) : '—'}`,
        `Monitor: ${escapeHtml(target.name)} (${target.type})`,
    ];
    if (n.kind === 'recovery' || n.kind === 'chain-resumed' || n.kind === 'warning-cleared') {
        const was = WAS[n.kind] ?? (n.flapping ? 'Was flapping' : 'Was down');
        lines.push(`${was} for ${formatDuration(n.durationMs ?? nowMs - n.since)}, since ${utc(n.since)}`);
        if (n.message) lines.push(`Now: ${escapeHtml(n.message)}`);
    } else {
        lines.push(`${isNotice(n) ? 'Notice' : 'Problem'}: ${escapeHtml(n.message ?? 'no message')}`);
        lines.push(`Since: ${utc(n.since)}${n.kind === 'reminder' ? ` (${formatDuration(nowMs - n.since)} ago)` : ''}`);
    }
    lines.push(`<i>Incident ${escapeHtml(n.incidentId.slice(0, 8))}</i>`);
    return lines.join('\n');
}
