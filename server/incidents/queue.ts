import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { configurationChannels, notificationChannels, outbox } from '../db/schema';
import { formatNotification } from '../notify/format';
import { isNotice, isServerGroup, type NotificationRecord, parsePayload } from '../notify/record';
import { type RoutedLink, routes } from '../notify/routing';
import { summaryLine } from '../notify/summary';

export interface IncidentLink extends RoutedLink {
    channelId: number;
    channelName: string;
    escalateAfterMinutes: number | null;
}

/** The enabled channels linked to these configurations, with their routing. */
export function linksOf(db: Db, configurationIds: number[]): Promise<(IncidentLink & { configurationId: number })[]> {
    return db
        .select({
            configurationId: configurationChannels.configurationId,
            channelId: notificationChannels.id,
            channelName: notificationChannels.name,
            type: notificationChannels.type,
            sendRecoveries: configurationChannels.sendRecoveries,
            sendReminders: configurationChannels.sendReminders,
            minSeverity: configurationChannels.minSeverity,
            escalateAfterMinutes: configurationChannels.escalateAfterMinutes,
        })
        .from(configurationChannels)
        .innerJoin(notificationChannels, eq(notificationChannels.id, configurationChannels.notificationChannelId))
        .where(
            and(
                inArray(configurationChannels.configurationId, configurationIds),
                eq(notificationChannels.isEnabled, true)
            )
        );
}

/** The opening notification an incident keeps (incidents.payload). */
export function openingRecord(payload: string): NotificationRecord | null {
    const record = parsePayload(payload);
    return record && record.kind !== 'test' && !isNotice(record) && !isServerGroup(record) ? record : null;
}

/**
 * Queues `record` for each of `links` that takes it (routing.ts), as one outbox row per channel; under a server's
 * group key (server-hold.ts) when given, so that the rows of one group queued together go out as one message.
 */
export async function queue(
    db: Db,
    record: NotificationRecord,
    links: IncidentLink[],
    groupKey: string | null = null
): Promise<number[]> {
    const taking = links.filter((l) => routes(l, record));
    if (taking.length === 0) return [];
    await db.insert(outbox).values(outboxRows(record, taking).map((r) => ({ ...r, groupKey })));
    return taking.map((l) => l.channelId);
}

/** One outbox row per link for `record`: its Telegram text, digest line and payload, rendered once. */
export function outboxRows(
    record: NotificationRecord,
    links: Pick<IncidentLink, 'channelId' | 'minSeverity'>[]
): (typeof outbox.$inferInsert)[] {
    if (links.length === 0) return [];
    const text = formatNotification(record.subject, record, record.at);
    const summary = summaryLine(record.subject, record, record.at);
    const payload = JSON.stringify(record);
    // A link that takes no warnings never heard of the one this alert ends: there is nothing for it to resolve.
    const { endsWarning: _, ...unwarned } = record;
    const unwarnedPayload = record.endsWarning ? JSON.stringify(unwarned) : payload;
    return links.map((l) => ({
        channelId: l.channelId,
        monitorId: record.subject.id,
        incidentId: record.incidentId,
        kind: record.kind,
        text,
        summary,
        payload: l.minSeverity === 'warning' ? payload : unwarnedPayload,
    }));
}
