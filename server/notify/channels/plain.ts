import { formatDuration } from '../../../common/duration';
import { formatNotification, utc } from '../format';
import { deliveryNoticeText } from '../delivery-notice';
import { isDeliveryNotice, type NotificationRecord, type OutgoingRecord } from '../record';
import { plain } from './common';

/** A notification as plain text: the heading word, the subject's name, and the body lines of the Telegram text. */
export interface PlainMessage {
    /** ALERT, STILL FAILING, RECOVERED, FLAPPING, STILL FLAPPING, CHAIN STALLED, CHAIN RESUMED, WARNING, ACKNOWLEDGED, TEST, CHANNEL …. */
    heading: string;
    /** What it is about: the monitor, the chain for a chain halt, or the channel for a delivery notice. */
    name: string;
    lines: string[];
    /** good (recovered, warning cleared), bad (failing), unsettled (flapping), warning or info (test, notices, acknowledgement). */
    tone: 'good' | 'bad' | 'unsettled' | 'warning' | 'info';
    /** The console page it is about (PUBLIC_URL), which each type links in its own way. */
    url?: string;
}

const HEADINGS: Record<NotificationRecord['kind'], string> = {
    alert: 'ALERT',
    reminder: 'STILL FAILING',
    recovery: 'RECOVERED',
    flapping: 'FLAPPING',
    'chain-stalled': 'CHAIN STALLED',
    'chain-resumed': 'CHAIN RESUMED',
    'upgrade-notice': 'UPGRADE SCHEDULED',
    'upgrade-height': 'UPGRADE HEIGHT REACHED',
    warning: 'WARNING',
    'warning-cleared': 'WARNING CLEARED',
    acknowledged: 'ACKNOWLEDGED',
};

export function plainMessage(record: OutgoingRecord): PlainMessage {
    if (isDeliveryNotice(record)) return deliveryNoticeText(record);
    if (record.kind === 'test') {
        return {
            heading: 'TEST',
            name: 'Node Monitor',
            lines: [`Test message for notification channel "${record.channelName}". Alerts will arrive here.`],
            tone: 'info',
        };
    }
    const heading = record.kind === 'reminder' && record.flapping ? 'STILL FLAPPING' : HEADINGS[record.kind];
    const chain =
        record.kind === 'chain-stalled' || record.kind === 'chain-resumed' || record.kind === 'upgrade-height';
    const lines = formatNotification(record.subject, record, record.at).split('\n').slice(1).map(plain);
    if (record.stillFailing) {
        lines.push(
            `Still failing since ${utc(record.since)} (${formatDuration(record.stillFailing.at - record.since)} so far)`
        );
    }
    const tone =
        record.kind === 'recovery' || record.kind === 'chain-resumed' || record.kind === 'warning-cleared'
            ? 'good'
            : record.kind === 'upgrade-notice' || record.kind === 'upgrade-height' || record.kind === 'acknowledged'
              ? 'info'
              : record.kind === 'warning'
                ? 'warning'
                : record.kind === 'flapping' || record.flapping
                  ? 'unsettled'
                  : 'bad';
    return {
        heading,
        name: chain ? record.subject.configuration.chain : record.subject.name,
        lines,
        tone,
        ...(record.url ? { url: record.url } : {}),
    };
}

/** `[ALERT] Block height`: the e-mail subject and the one-line summary of the chat types. */
export const titleOf = (m: PlainMessage) => `[${m.heading}] ${m.name}`;
