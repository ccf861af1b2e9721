import { and, eq, inArray, sql } from 'drizzle-orm';
import { formatDuration, utc } from '../../common/duration';
import type { Db } from '../db/client';
import { incidentEvents, incidents } from '../db/schema';
import type { NotificationFacts, NotificationKind, NotificationRecord } from '../notify/record';
import type { MonitorTarget } from '../engine/targets';
import { noticeSubscribers } from '../status-pages/subscribers';

/** What writeTransitions hands over: one queued notification and where it comes from. */
export interface IncidentNotice {
    target: MonitorTarget;
    notification: NotificationFacts;
    record: NotificationRecord;
    at: Date;
    /** A recovery held back by a silence or window, sent to the channels when it ends (ms). */
    heldUntil?: number;
}

/** The timeline event of a held recovery; its text carries the time the channels get it (read.ts reads it back). */
export const RECOVERY_HELD = 'recovery-held';
export const heldText = (untilMs: number) => `RECOVERED held until ${new Date(untilMs).toISOString()}`;

/** A link as the gate reads it. */
export interface GatedLink {
    channelId: number;
    escalateAfterMinutes: number | null;
}

/** Whether a notification goes to a link, given its incident's acknowledgement and escalation. */
export type IncidentGate = (notification: NotificationFacts, link: GatedLink) => boolean;

const OPENING: readonly NotificationKind[] = ['alert', 'flapping', 'chain-stalled'];
const CLOSING: readonly NotificationKind[] = ['recovery', 'chain-resumed'];
/** Kinds that belong to an incident: notices (upgrades) inform and open none. */
const INCIDENT_KINDS: readonly NotificationKind[] = [...OPENING, ...CLOSING, 'reminder'];

const eventText = (n: NotificationFacts, at: number): string => {
    const message = n.message ?? 'no message';
    switch (n.kind) {
        case 'alert':
            return `Alert: ${message}`;
        case 'reminder':
            return `Reminder: ${message}`;
        case 'flapping':
            return `Flapping: ${message}`;
        case 'chain-stalled':
            return `Chain stalled: ${message}`;
        case 'recovery':
            return `Recovered after ${formatDuration(n.durationMs ?? at - n.since)}${n.message ? `: ${n.message}` : ''}`;
        case 'chain-resumed':
            return `Chain resumed after ${formatDuration(n.durationMs ?? at - n.since)}: ${message}`;
        default:
            return message;
    }
};

/**
 * The incidents step of writeTransitions, inside its transaction: opens an incident with its alert (or CHAIN
 * STALLED), adds reminders and flapping to its timeline, closes it with its recovery; then answers, from the
 * database, which links each notification may go to. Being in the same transaction as the engine state, a restart
 * neither re-opens nor duplicates an incident, and an acknowledgement made before the restart still holds.
 *
 * - A reminder of an acknowledged incident goes nowhere (nor into its timeline).
 * - A link with `escalate_after_minutes` gets an incident's notifications only once the escalation sweep
 *   (escalation.ts) sent it the alert; a notification that belongs to no incident (a notice) goes as usual.
 */
export async function recordIncidents(db: Db, notices: IncidentNotice[]): Promise<IncidentGate> {
    const relevant = notices.filter((n) => INCIDENT_KINDS.includes(n.notification.kind));
    if (relevant.length === 0) return () => true;
    const ids = [...new Set(relevant.map((n) => n.notification.incidentId))];
    const opening = relevant.filter((n) => OPENING.includes(n.notification.kind));
    if (opening.length) {
        const opened = await db
            .insert(incidents)
            .values(opening.map(toIncident))
            .onConflictDoNothing({ target: incidents.id })
            .returning({ kind: incidents.kind, monitorId: incidents.monitorId, openedAt: incidents.openedAt });
        for (const i of opened) {
            if (i.kind === 'monitor' && i.monitorId !== null)
                await noticeSubscribers(db, [i.monitorId], ({ title, component }) => ({
                    subject: `${title}: ${component} outage`,
                    body: `${component} has had a problem since ${utc(i.openedAt.getTime())}. We are on it.`,
                }));
        }
    }
    const known = await db
        .select({ id: incidents.id, acknowledgedAt: incidents.acknowledgedAt })
        .from(incidents)
        .where(inArray(incidents.id, ids));
    const acknowledged = new Set(known.filter((k) => k.acknowledgedAt).map((k) => k.id));
    const exists = new Set(known.map((k) => k.id));
    const events = relevant.filter(
        (n) =>
            exists.has(n.notification.incidentId) &&
            !(n.notification.kind === 'reminder' && acknowledged.has(n.notification.incidentId))
    );
    if (events.length) {
        await db.insert(incidentEvents).values(
            events.flatMap((n) => [
                {
                    incidentId: n.notification.incidentId,
                    at: n.at,
                    kind: n.notification.kind,
                    text: eventText(n.notification, n.at.getTime()),
                },
                // Closed here, but the channels still show an open alert until the window or silence ends: said so.
                ...(n.heldUntil !== undefined && CLOSING.includes(n.notification.kind)
                    ? [
                          {
                              incidentId: n.notification.incidentId,
                              at: n.at,
                              kind: RECOVERY_HELD,
                              text: heldText(n.heldUntil),
                          },
                      ]
                    : []),
            ])
        );
    }
    for (const n of relevant.filter((r) => CLOSING.includes(r.notification.kind))) {
        const [closed] = await db
            .update(incidents)
            .set({ status: 'closed', closedAt: n.at })
            .where(and(eq(incidents.id, n.notification.incidentId), eq(incidents.status, 'open')))
            .returning({ kind: incidents.kind, monitorId: incidents.monitorId, openedAt: incidents.openedAt });
        if (closed?.kind === 'monitor' && closed.monitorId !== null)
            await noticeSubscribers(db, [closed.monitorId], ({ title, component }) => ({
                subject: `${title}: ${component} resolved`,
                body: `${component} is back to normal after ${formatDuration(n.at.getTime() - closed.openedAt.getTime())}.`,
            }));
    }
    const escalated = await escalatedChannels(db, ids);
    return (n, link) => {
        if (!exists.has(n.incidentId)) return true;
        if (n.kind === 'reminder' && acknowledged.has(n.incidentId)) return false;
        return link.escalateAfterMinutes === null || escalated.has(`${n.incidentId}/${link.channelId}`);
    };
}

/** `incident/channel` of each channel an incident was escalated to. */
export async function escalatedChannels(db: Db, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await db
        .select({ incidentId: incidentEvents.incidentId, channelId: incidentEvents.channelId })
        .from(incidentEvents)
        .where(and(inArray(incidentEvents.incidentId, ids), eq(incidentEvents.kind, 'escalation')));
    return new Set(rows.map((r) => `${r.incidentId}/${r.channelId}`));
}

function toIncident(n: IncidentNotice): typeof incidents.$inferInsert {
    const t = n.target;
    const chain = n.notification.kind === 'chain-stalled';
    return {
        id: n.notification.incidentId,
        companyId: t.configuration.companyId,
        kind: chain ? 'chain' : 'monitor',
        severity: n.record.severity,
        configurationId: t.configuration.id,
        configurationName: t.configuration.name,
        // A chain halt is about the chain, not the server of the node that reported it.
        serverId: chain ? null : (t.server?.id ?? null),
        serverName: chain ? null : (t.server?.name ?? null),
        monitorId: t.id,
        monitorName: t.name,
        message: n.notification.message,
        payload: JSON.stringify(n.record),
        openedAt: new Date(n.notification.since),
    };
}

/** For the sweep and acknowledgement: `now` as SQL, from our clock (tests move it), not the database's. */
export const sqlNow = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
