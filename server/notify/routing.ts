import type { ChannelType } from '../../common/channel-types';
import { CHANNELS } from './channels';
import type { NotificationRecord } from './record';

/** A configuration's link to a channel, as routing reads it. */
export interface RoutedLink {
    type: ChannelType;
    sendRecoveries: boolean;
    sendReminders: boolean;
    minSeverity?: 'critical' | 'warning';
}

/**
 * Whether a notification is queued for a link: the link may leave out recoveries (a warning's clear is one) and
 * reminders, a warning and its clear go only where warnings are asked for, and a type may not send a kind at all
 * (PagerDuty re-notifies by itself, so no reminders).
 */
export function routes(link: RoutedLink, record: NotificationRecord): boolean {
    const recovery = record.kind === 'recovery' || record.kind === 'chain-resumed' || record.kind === 'warning-cleared';
    if (recovery && !link.sendRecoveries) return false;
    if (record.kind === 'reminder' && !link.sendReminders) return false;
    if (record.severity === 'warning' && (link.minSeverity ?? 'critical') !== 'warning') return false;
    return CHANNELS[link.type].render(record) !== null;
}
