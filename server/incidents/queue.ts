import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { configurationChannels, notificationChannels, outbox } from '../db/schema';
import { formatNotification } from '../notify/format';
import { isDeliveryNotice, type NotificationRecord, parsePayload } from '../notify/record';
import { type RoutedLink, routes } from '../notify/routing';
import { summaryLine } from '../notify/summary';

export interface IncidentLink extends RoutedLink {
    channelId: number;
    channelName: string;
    escalateAfterMinutes: number | null;
}

/** The enabled channels linked to a configuration, with their routing. */
export function linksOf(db: Db, configurationId: number): Promise<IncidentLink[]> {
    return db
        .select({
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
            and(eq(configurationChannels.configurationId, configurationId), eq(notificationChannels.isEnabled, true))
        );
}

/** The opening notification an incident keeps (incidents.payload). */
export function openingRecord(payload: string): NotificationRecord | null {
    const record = parsePayload(payload);
    return record && record.kind !== 'test' && !isDeliveryNotice(record) ? record : null;
}

/** Queues `record` for each of `links` that takes it (routing.ts), as one outbox row per channel. */
export async function queue(db: Db, record: NotificationRecord, links: IncidentLink[]): Promise<number[]> {
    const taking = links.filter((l) => routes(l, record));
    if (taking.length === 0) return [];
    const text = formatNotification(record.subject, record, record.at);
    const summary = summaryLine(record.subject, record, record.at);
    const payload = JSON.stringify(record);
    await db.insert(outbox).values(
        taking.map((l) => ({
            channelId: l.channelId,
            monitorId: record.subject.id,
            incidentId: record.incidentId,
            kind: record.kind,
            text,
            summary,
            payload,
        }))
    );
    return taking.map((l) => l.channelId);
}
