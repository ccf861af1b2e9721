import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { INCIDENT_UPDATE_STATUSES, type IncidentUpdate } from '../../common/status-pages';
import type { Db } from '../db/client';
import { type IncidentUpdateRow, incidentUpdates } from '../db/schema';
import { badRequest } from '../errors';
import { findIncident } from '../incidents/read';
import type { Scope } from '../repositories/scope';
import { fieldErrors } from '../validation/schemas';
import { noticeSubscribers } from './subscribers';

const TEXT_MAX = 2000;

export const incidentUpdateBody = z.strictObject({
    status: z.enum(INCIDENT_UPDATE_STATUSES, {
        error: `status must be one of ${INCIDENT_UPDATE_STATUSES.join(', ')}`,
    }),
    text: z
        .string({ error: 'text is required' })
        .trim()
        .min(1, 'text is required')
        .max(TEXT_MAX, `text must be at most ${TEXT_MAX} characters`)
        .refine((s) => !s.includes('\u0000'), 'text must not contain NUL characters'),
});

const toUpdate = (row: IncidentUpdateRow): IncidentUpdate => ({
    id: row.id,
    incident_id: row.incidentId,
    status: row.status,
    text: row.text,
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy,
});

/** The public updates of an incident of the caller's company (404 for anyone else's), oldest first. */
export async function listIncidentUpdates(db: Db, scope: Scope, incidentId: string): Promise<IncidentUpdate[]> {
    await findIncident(db, scope, incidentId);
    const rows = await db
        .select()
        .from(incidentUpdates)
        .where(eq(incidentUpdates.incidentId, incidentId))
        .orderBy(asc(incidentUpdates.id));
    return rows.map(toUpdate);
}

export async function postIncidentUpdate(
    db: Db,
    scope: Scope,
    incidentId: string,
    input: unknown,
    by: string
): Promise<{ update: IncidentUpdate; companyId: number }> {
    const parsed = incidentUpdateBody.safeParse(input);
    if (!parsed.success) throw badRequest(fieldErrors(parsed.error));
    const incident = await findIncident(db, scope, incidentId);
    const [row] = await db
        .insert(incidentUpdates)
        .values({ incidentId, status: parsed.data.status, text: parsed.data.text, createdBy: by })
        .returning();
    if (!row) throw new Error('The update was not stored');
    if (incident.kind === 'monitor' && incident.monitorId !== null) {
        const word = parsed.data.status[0]?.toUpperCase() + parsed.data.status.slice(1);
        await noticeSubscribers(db, [incident.monitorId], ({ title, component }) => ({
            subject: `${title}: ${component} ${parsed.data.status === 'resolved' ? 'resolved' : 'update'}`,
            body: `${word}: ${parsed.data.text}`,
        }));
    }
    return { update: toUpdate(row), companyId: incident.companyId };
}
