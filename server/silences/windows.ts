import { and, asc, eq, gt, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type MaintenanceWindow, WINDOW_MUTES } from '../../common/silences';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { configurations, maintenanceWindows, servers } from '../db/schema';
import { badRequest, conflict, notFound } from '../errors';
import { utc } from '../../common/duration';
import { inScope, type Scope } from '../repositories/scope';
import { readOnlyFields } from '../validation/schemas';
import { HORIZON_MS, instant, oneTarget, reasonField, targetRefs } from './fields';
import { fieldErrors } from '../validation/schemas';
import { isOn, occurrence, WEEK_MS } from './occurrence';
import { noticeMaintenance } from '../status-pages/subscribers';
import { describeTarget, findTarget } from './targets';
import { auditedWrite, type By, byOf } from './write';

const MAX_LENGTH_MS = 31 * 24 * 3600_000;

/** POST and PUT /api/maintenance-windows; what react-admin echoes back from a read is accepted and ignored. */
export const windowBody = z.strictObject({
    configuration_id: targetRefs.configuration_id,
    server_id: targetRefs.server_id,
    starts_at: instant('starts_at'),
    ends_at: instant('ends_at'),
    repeat_weekly: z.boolean({ error: 'repeat_weekly must be true or false' }).optional().default(false),
    mutes: z.enum(WINDOW_MUTES, { error: 'mutes must be "node" or "all"' }).optional().default('node'),
    reason: reasonField,
    target: z.unknown().optional(),
    created_by: z.unknown().optional(),
    active: z.unknown().optional(),
    next_starts_at: z.unknown().optional(),
    next_ends_at: z.unknown().optional(),
    ...readOnlyFields,
});

type Ctx = Pick<AppContext, 'db' | 'events' | 'silences'>;

function parse(input: unknown) {
    const parsed = windowBody.safeParse(input);
    if (!parsed.success) throw badRequest(fieldErrors(parsed.error));
    const body = parsed.data;
    const target = oneTarget(body, ['configuration_id', 'server_id']);
    const startsAt = Date.parse(body.starts_at);
    const endsAt = Date.parse(body.ends_at);
    const now = Date.now();
    if (endsAt <= startsAt) throw badRequest({ ends_at: 'ends_at must be after starts_at' });
    if (!body.repeat_weekly && endsAt <= now) throw badRequest({ ends_at: 'ends_at must be in the future' });
    if (body.repeat_weekly && endsAt - startsAt >= WEEK_MS)
        throw badRequest({ ends_at: 'A weekly window must last less than a week' });
    if (endsAt - startsAt > MAX_LENGTH_MS) throw badRequest({ ends_at: 'A window lasts at most 31 days' });
    if (startsAt > now + HORIZON_MS) throw badRequest({ starts_at: 'starts_at must be within a year' });
    return { ...target, body, startsAt, endsAt };
}

const span = (p: ReturnType<typeof parse>) =>
    `${utc(p.startsAt)} – ${utc(p.endsAt)}${p.body.repeat_weekly ? ', weekly' : ''}, mutes ${p.body.mutes}`;

export async function createWindow(
    ctx: Ctx,
    scope: Scope,
    input: unknown,
    by: By | string
): Promise<MaintenanceWindow> {
    const p = parse(input);
    const who = byOf(by);
    const id = await auditedWrite(ctx, who, 'MAINTENANCE_WINDOW_CREATED', async (tx) => {
        const target = await findTarget(tx, scope, p.field, p.id);
        const [row] = await tx
            .insert(maintenanceWindows)
            .values({
                companyId: target.companyId,
                configurationId: p.field === 'configuration_id' ? p.id : null,
                serverId: p.field === 'server_id' ? p.id : null,
                startsAt: new Date(p.startsAt),
                endsAt: new Date(p.endsAt),
                repeatWeekly: p.body.repeat_weekly,
                mutes: p.body.mutes,
                reason: p.body.reason,
                createdBy: who.name,
                createdByUserId: who.userId ?? null,
            })
            .returning({ id: maintenanceWindows.id });
        if (!row) throw new Error('The window was not stored');
        await noticeMaintenance(
            tx,
            {
                configurationId: p.field === 'configuration_id' ? p.id : null,
                serverId: p.field === 'server_id' ? p.id : null,
            },
            { startsAt: new Date(p.startsAt), endsAt: new Date(p.endsAt), reason: p.body.reason }
        );
        const message = `Maintenance window of ${describeTarget(target)} (${span(p)}) created by ${who.name}: ${p.body.reason}`;
        return { result: row.id, target, message };
    });
    return getWindow(ctx.db, scope, id ?? 0);
}

export async function updateWindow(
    ctx: Ctx,
    scope: Scope,
    id: number,
    input: unknown,
    by: By | string
): Promise<MaintenanceWindow> {
    await getWindow(ctx.db, scope, id);
    const p = parse(input);
    const who = byOf(by);
    await auditedWrite(ctx, who, 'MAINTENANCE_WINDOW_UPDATED', async (tx) => {
        const target = await findTarget(tx, scope, p.field, p.id);
        const [row] = await tx
            .update(maintenanceWindows)
            .set({
                companyId: target.companyId,
                configurationId: p.field === 'configuration_id' ? p.id : null,
                serverId: p.field === 'server_id' ? p.id : null,
                startsAt: new Date(p.startsAt),
                endsAt: new Date(p.endsAt),
                repeatWeekly: p.body.repeat_weekly,
                mutes: p.body.mutes,
                reason: p.body.reason,
                updatedAt: new Date(),
            })
            .where(and(eq(maintenanceWindows.id, id), inScope(maintenanceWindows.companyId, scope)))
            .returning({ id: maintenanceWindows.id });
        if (!row) throw notFound('Maintenance window');
        const message = `Maintenance window of ${describeTarget(target)} (${span(p)}) updated by ${who.name}: ${p.body.reason}`;
        return { result: row.id, target, message };
    });
    return getWindow(ctx.db, scope, id);
}

export async function deleteWindow(ctx: Ctx, scope: Scope, id: number, by: By | string): Promise<MaintenanceWindow> {
    const existing = await getWindow(ctx.db, scope, id);
    const who = byOf(by);
    await auditedWrite(ctx, who, 'MAINTENANCE_WINDOW_DELETED', async (tx) => {
        const field = existing.server_id ? 'server_id' : 'configuration_id';
        const target = await findTarget(tx, scope, field, existing.server_id ?? existing.configuration_id ?? 0);
        const [row] = await tx
            .delete(maintenanceWindows)
            .where(and(eq(maintenanceWindows.id, id), inScope(maintenanceWindows.companyId, scope)))
            .returning({ id: maintenanceWindows.id });
        if (!row) throw notFound('Maintenance window');
        return {
            result: id,
            target,
            message: `Maintenance window of ${describeTarget(target)} deleted by ${who.name}`,
        };
    });
    return existing;
}

/**
 * Ends a window that is on now: its end becomes now. A weekly one ends for good (it would otherwise come back next
 * week as if nothing happened): what stays is the occurrence that just ended. What it held back is then sent, as
 * when a window closes on time.
 */
export async function endWindow(ctx: Ctx, scope: Scope, id: number, by: By | string): Promise<MaintenanceWindow> {
    const existing = await getWindow(ctx.db, scope, id);
    if (!existing.active || !existing.next_starts_at) throw conflict('The maintenance window is not on now');
    const who = byOf(by);
    const now = new Date();
    await auditedWrite(ctx, who, 'MAINTENANCE_WINDOW_ENDED', async (tx) => {
        const field = existing.server_id ? 'server_id' : 'configuration_id';
        const target = await findTarget(tx, scope, field, existing.server_id ?? existing.configuration_id ?? 0);
        const [row] = await tx
            .update(maintenanceWindows)
            .set({
                startsAt: new Date(existing.next_starts_at ?? now),
                endsAt: now,
                repeatWeekly: false,
                updatedAt: now,
            })
            .where(and(eq(maintenanceWindows.id, id), inScope(maintenanceWindows.companyId, scope)))
            .returning({ id: maintenanceWindows.id });
        if (!row) throw notFound('Maintenance window');
        return {
            result: id,
            target,
            message: `Maintenance window of ${describeTarget(target)} ended early by ${who.name}`,
        };
    });
    return getWindow(ctx.db, scope, id);
}

/** Windows on now or coming (weekly ones always), by their next occurrence. */
export async function listWindows(db: Db, scope: Scope): Promise<MaintenanceWindow[]> {
    const rows = await find(
        db,
        and(
            inScope(maintenanceWindows.companyId, scope),
            or(eq(maintenanceWindows.repeatWeekly, true), gt(maintenanceWindows.endsAt, new Date()))
        )
    );
    return rows.sort((a, b) => (a.next_starts_at ?? '').localeCompare(b.next_starts_at ?? '') || a.id - b.id);
}

export async function getWindow(db: Db, scope: Scope, id: number): Promise<MaintenanceWindow> {
    const [row] = await find(db, and(inScope(maintenanceWindows.companyId, scope), eq(maintenanceWindows.id, id)));
    if (!row) throw notFound('Maintenance window');
    return row;
}

async function find(db: Db, where: ReturnType<typeof and>): Promise<MaintenanceWindow[]> {
    const rows = await db
        .select({
            w: maintenanceWindows,
            server: { id: servers.id, name: servers.name },
            configuration: { id: configurations.id, name: configurations.name },
        })
        .from(maintenanceWindows)
        .leftJoin(servers, eq(servers.id, maintenanceWindows.serverId))
        .innerJoin(
            configurations,
            eq(configurations.id, sql`coalesce(${maintenanceWindows.configurationId}, ${servers.configurationId})`)
        )
        .where(where)
        .orderBy(asc(maintenanceWindows.id));
    const now = Date.now();
    return rows.map(({ w, server, configuration }) => {
        const next = occurrence(
            { startsAt: w.startsAt.getTime(), endsAt: w.endsAt.getTime(), repeatWeekly: w.repeatWeekly },
            now
        );
        const named =
            w.serverId && server
                ? { type: 'server' as const, ...server }
                : { type: 'configuration' as const, ...configuration };
        return {
            id: w.id,
            configuration_id: w.configurationId,
            server_id: w.serverId,
            target: { ...named, configuration_id: configuration.id, configuration_name: configuration.name },
            starts_at: w.startsAt.toISOString(),
            ends_at: w.endsAt.toISOString(),
            repeat_weekly: w.repeatWeekly,
            mutes: w.mutes,
            reason: w.reason,
            created_by: w.createdBy,
            created_at: w.createdAt.toISOString(),
            updated_at: w.updatedAt.toISOString(),
            active: isOn(next, now),
            next_starts_at: next ? new Date(next.startsAt).toISOString() : null,
            next_ends_at: next ? new Date(next.endsAt).toISOString() : null,
        };
    });
}
