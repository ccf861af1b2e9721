import { and, eq, inArray, isNull } from 'drizzle-orm';
import { writeAudit } from '../audit';
import type { Db } from '../db/client';
import { incidentEvents, incidents, outbox } from '../db/schema';
import type { IncidentRow } from '../db/schema';
import { inScope, type Scope } from '../repositories/scope';
import { serverGroupsOf } from '../notify/server-hold';
import { linksOf, openingRecord, queue } from './queue';
import { escalatedChannels } from './record';

/**
 * Who acts on an incident: a user of the console or of the API (a session or an API token), or a Telegram user
 * pressing a button under an alert (the Telegram poller calls `acknowledgeIncident` with that).
 */
export type IncidentActor =
    | { kind: 'user'; userId: number; username: string; via: 'console' | 'api' }
    | { kind: 'telegram'; userId: number; username?: string | null };

export type IncidentOutcome = { ok: true; incident: IncidentRow } | { ok: false; status: 404 | 409; message: string };

const whoIs = (by: IncidentActor) =>
    by.kind === 'user' ? by.username : by.username ? `@${by.username.replace(/^@/, '')}` : `Telegram user ${by.userId}`;
const via = (by: IncidentActor) => (by.kind === 'user' ? by.via : 'telegram');

/** The incident, scoped; null when absent or another company's. */
async function scoped(db: Db, id: string, scope: Scope): Promise<IncidentRow | null> {
    const [row] = await db
        .select()
        .from(incidents)
        .where(and(eq(incidents.id, id), inScope(incidents.companyId, scope)));
    return row ?? null;
}

/**
 * Acknowledges an open incident, once: in one transaction it records who and how, adds the timeline line, drops
 * reminders still waiting in the outbox, queues one short "acknowledged by …" message for each linked channel that
 * takes the incident's notifications (an escalation channel only if it was sent the alert), and audits it. Reminders
 * and escalation stop because both read `acknowledged_at` from the database (record.ts, escalation.ts), so this
 * survives a restart. A second acknowledgement, or one of a closed incident, changes nothing and answers 409.
 * `scope` is the caller's company (null: any, for a super admin). `tell: false` queues no message: the incidents of
 * one SERVER DOWN are acknowledged together and the channels told once, by the first.
 */
export async function acknowledgeIncident(
    db: Db,
    id: string,
    by: IncidentActor,
    opts: { scope?: Scope; note?: string | null; now?: number; tell?: boolean } = {}
): Promise<IncidentOutcome> {
    const now = opts.now ?? Date.now();
    const note = opts.note?.trim() || null;
    return db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const [row] = await tx
            .update(incidents)
            .set({ acknowledgedAt: new Date(now), acknowledgedBy: whoIs(by), acknowledgedVia: via(by) })
            .where(
                and(
                    eq(incidents.id, id),
                    inScope(incidents.companyId, opts.scope ?? null),
                    eq(incidents.status, 'open'),
                    isNull(incidents.acknowledgedAt)
                )
            )
            .returning();
        if (!row) {
            const found = await scoped(tx, id, opts.scope ?? null);
            if (!found) return { ok: false, status: 404, message: 'Incident not found' };
            if (found.status === 'closed') return { ok: false, status: 409, message: 'The incident is already closed' };
            return {
                ok: false,
                status: 409,
                message: `The incident was already acknowledged by ${found.acknowledgedBy ?? 'someone'} at ${found.acknowledgedAt?.toISOString() ?? 'an earlier time'}`,
            };
        }
        const text = `Acknowledged by ${whoIs(by)} (${via(by)})${note ? `: ${note}` : ''}`;
        await tx.insert(incidentEvents).values({ incidentId: id, at: new Date(now), kind: 'acknowledged', text });
        // Reminders that could not be delivered yet, or wait for their server's others (server-hold.ts), are not
        // sent any more either.
        await tx
            .delete(outbox)
            .where(
                and(eq(outbox.incidentId, id), eq(outbox.kind, 'reminder'), inArray(outbox.status, ['pending', 'held']))
            );
        const opening = openingRecord(row.payload);
        if (opening && opts.tell !== false) {
            const escalated = await escalatedChannels(tx, [id]);
            const links = (await linksOf(tx, [row.configurationId])).filter(
                (l) => l.escalateAfterMinutes === null || escalated.has(`${id}/${l.channelId}`)
            );
            // An alert sent as part of a SERVER DOWN was paged under the group's key: acknowledge that page.
            const group = (await serverGroupsOf(tx, [id])).get(id);
            await queue(
                tx,
                { ...opening, kind: 'acknowledged', at: now, message: text, ...(group ? { group } : {}) },
                links
            );
        }
        await writeAudit(tx, {
            companyId: row.companyId,
            actorUserId: by.kind === 'user' ? by.userId : null,
            configuration: { id: row.configurationId, name: row.configurationName },
            server: row.serverId !== null ? { id: row.serverId, name: row.serverName ?? `#${row.serverId}` } : null,
            monitor:
                row.monitorId !== null ? { id: row.monitorId, name: row.monitorName ?? `#${row.monitorId}` } : null,
            message: `Incident ${id.slice(0, 8)} ${text.charAt(0).toLowerCase()}${text.slice(1)}`,
        });
        return { ok: true, incident: row };
    });
}

/** Adds a note to an incident's timeline (open or closed: notes after the fact are post-mortems). */
export async function addIncidentNote(
    db: Db,
    id: string,
    by: IncidentActor,
    note: string,
    opts: { scope?: Scope; now?: number } = {}
): Promise<IncidentOutcome> {
    const now = opts.now ?? Date.now();
    return db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const row = await scoped(tx, id, opts.scope ?? null);
        if (!row) return { ok: false, status: 404, message: 'Incident not found' };
        await tx
            .insert(incidentEvents)
            .values({ incidentId: id, at: new Date(now), kind: 'note', text: `${whoIs(by)}: ${note.trim()}` });
        await writeAudit(tx, {
            companyId: row.companyId,
            actorUserId: by.kind === 'user' ? by.userId : null,
            configuration: { id: row.configurationId, name: row.configurationName },
            message: `Note added to incident ${id.slice(0, 8)} by ${whoIs(by)}`,
        });
        return { ok: true, incident: row };
    });
}
