import { formatDuration } from '../../common/duration';
import { escapeHtml, utc } from './format';
import type { DeliveryNoticeRecord } from './record';

/** A delivery notice as the plain types show it (channels/plain.ts): heading, the channel's name, lines. */
export interface DeliveryNoticeText {
    heading: string;
    name: string;
    lines: string[];
    tone: 'good' | 'bad';
}

const HEADINGS = {
    failing: 'CHANNEL NOT DELIVERING',
    delivering: 'CHANNEL DELIVERING AGAIN',
    disabled: 'CHANNEL DISABLED WHILE FAILING',
    deleted: 'CHANNEL DELETED WHILE FAILING',
} as const;

/** Names the company, the channel and its type, since when, and the destination's last error. */
export function deliveryNoticeText(r: DeliveryNoticeRecord): DeliveryNoticeText {
    const failing = r.kind === 'channel-failing';
    const lines = [`Company: ${r.company.name}`, `Channel: ${r.channel.name} (${r.channel.type})`];
    if (failing) {
        lines.push(`Not delivering since: ${utc(r.since)} (${formatDuration(r.at - r.since)})`);
        lines.push(`Last error: ${r.lastError ?? 'none given'}`);
        lines.push('Its notifications wait in the outbox and go out once it delivers again.');
    } else {
        lines.push(`Was not delivering for ${formatDuration(r.at - r.since)}, since ${utc(r.since)}`);
    }
    return {
        heading: HEADINGS[failing ? 'failing' : (r.ended ?? 'delivering')],
        name: r.channel.name,
        lines,
        tone: failing ? 'bad' : 'good',
    };
}

/** Telegram HTML, as the other notifications (format.ts): heading in bold, everything else escaped. */
export function deliveryNoticeHtml(r: DeliveryNoticeRecord): string {
    const t = deliveryNoticeText(r);
    const icon = t.tone === 'bad' ? '📵' : '✅';
    return [`${icon} <b>${t.heading}</b> ${escapeHtml(t.name)}`, ...t.lines.map(escapeHtml)].join('\n');
}
