import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Silence } from '../../common/silences';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { configurations, monitors, servers, silences } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { utc } from '../../common/duration';
import { inScope, type Scope } from '../repositories/scope';
import { HORIZON_MS, instant, oneTarget, reasonField, targetRefs } from './fields';
import { fieldErrors } from '../validation/schemas';
import { describeTarget, findTarget } from './targets';
import { auditedWrite, type By, byOf } from './write';

/** POST /api/silences: exactly one target, an end in the future, a reason. */
export const silenceBody = z.strictObject({
    ...targetRefs,
    starts_at: instant('starts_at').optional().nullable(),
    ends_at: instant('ends_at'),
    reason: reasonField,
});
export type SilenceInput = z.input<typeof silenceBody>;

type Ctx = Pick<AppContext, 'db' | 'events' | 'silences'>;

/**
 * Creates a silence among the rows of `scope` (a company id, or null for every company): the API's POST, and what
 * the Telegram "Silence 1 h" button calls. Bad input answers 400 naming the field, a target outside the scope 404.
 */
export async function createSilence(ctx: Ctx, scope: Scope, input: unknown, by: By | string): Promise<Silence> {
    const parsed = silenceBody.safeParse(input);
    if (!parsed.success) throw badRequest(fieldErrors(parsed.error));
    const body = parsed.data;
    const { field, id } = oneTarget(body, ['monitor_id', 'server_id', 'configuration_id']);
    const now = Date.now();
    const startsAt = body.starts_at ? Date.parse(body.starts_at) : now;
    const endsAt = Date.parse(body.ends_at);
    if (endsAt <= now) throw badRequest({ ends_at: 'ends_at must be in the future' });
    if (endsAt <= startsAt) throw badRequest({ ends_at: 'ends_at must be after starts_at' });
    if (startsAt > now + HORIZON_MS) throw badRequest({ starts_at: 'starts_at must be within a year' });
    if (endsAt > Math.max(now, startsAt) + HORIZON_MS) throw badRequest({ ends_at: 'A silence lasts at most a year' });
    const who = byOf(by);
    const created = await auditedWrite(ctx, who, 'SILENCE_CREATED', async (tx) => {
        const target = await findTarget(tx, scope, field, id);
        const [row] = await tx
            .insert(silences)
            .values({
                companyId: target.companyId,
                monitorId: target.field === 'monitor_id' ? id : null,
                serverId: target.field === 'server_id' ? id : null,
                configurationId: target.field === 'configuration_id' ? id : null,
                startsAt: new Date(startsAt),
                endsAt: new Date(endsAt),
                reason: body.reason,
                createdBy: who.name,
                createdByUserId: who.userId ?? null,
            })
            .returning({ id: silences.id });
        if (!row) throw new Error('The silence was not stored');
        const message = `Silence of ${describeTarget(target)} until ${utc(endsAt)} created by ${who.name}: ${body.reason}`;
        return { result: row.id, target, message };
    });
    return getSilence(ctx.db, scope, created ?? 0);
}

/** DELETE /api/silences/{id}: ends it now (an upcoming one never starts). Ending an ended one changes nothing. */
export async function endSilence(ctx: Ctx, scope: Scope, id: number, by: By | string): Promise<Silence> {
    const who = byOf(by);
    await auditedWrite(ctx, who, 'SILENCE_ENDED', async (tx) => {
        const [row] = await tx
            .select()
            .from(silences)
            .where(and(eq(silences.id, id), inScope(silences.companyId, scope)));
        if (!row) throw notFound('Silence');
        const now = new Date();
        if (row.endedAt || row.endsAt <= now) return null;
        await tx.update(silences).set({ endedAt: now, endedBy: who.name }).where(eq(silences.id, id));
        const field = row.monitorId ? 'monitor_id' : row.serverId ? 'server_id' : 'configuration_id';
        const target = await findTarget(tx, scope, field, row.monitorId ?? row.serverId ?? row.configurationId ?? 0);
        return { result: id, target, message: `Silence of ${describeTarget(target)} ended by ${who.name}` };
    });
    return getSilence(ctx.db, scope, id);
}

/** Silences on now or later, soonest end first. */
export async function listSilences(db: Db, scope: Scope): Promise<Silence[]> {
    return find(db, and(inScope(silences.companyId, scope), isNull(silences.endedAt), gt(silences.endsAt, new Date())));
}

export async function getSilence(db: Db, scope: Scope, id: number): Promise<Silence> {
    const [row] = await find(db, and(inScope(silences.companyId, scope), eq(silences.id, id)));
    if (!row) throw notFound('Silence');
    return row;
}

async function find(db: Db, where: ReturnType<typeof and>): Promise<Silence[]> {
    const rows = await db
        .select({
            s: silences,
            monitor: { id: monitors.id, name: monitors.name },
            server: { id: servers.id, name: servers.name },
            configuration: { id: configurations.id, name: configurations.name },
        })
        .from(silences)
        .leftJoin(monitors, eq(monitors.id, silences.monitorId))
        .leftJoin(servers, eq(servers.id, sql`coalesce(${silences.serverId}, ${monitors.serverId})`))
        .innerJoin(
            configurations,
            eq(
                configurations.id,
                sql`coalesce(${silences.configurationId}, ${servers.configurationId}, ${monitors.configurationId})`
            )
        )
        .where(where)
        .orderBy(asc(silences.endsAt), asc(silences.id));
    const now = Date.now();
    return rows.map(({ s, monitor, server, configuration }) => {
        const end = Math.min(s.endsAt.getTime(), s.endedAt?.getTime() ?? Number.POSITIVE_INFINITY);
        const named =
            s.monitorId && monitor
                ? { type: 'monitor' as const, ...monitor }
                : s.serverId && server
                  ? { type: 'server' as const, ...server }
                  : { type: 'configuration' as const, ...configuration };
        return {
            id: s.id,
            monitor_id: s.monitorId,
            server_id: s.serverId,
            configuration_id: s.configurationId,
            target: { ...named, configuration_id: configuration.id, configuration_name: configuration.name },
            starts_at: s.startsAt.toISOString(),
            ends_at: s.endsAt.toISOString(),
            reason: s.reason,
            created_by: s.createdBy,
            created_at: s.createdAt.toISOString(),
            ended_at: s.endedAt ? s.endedAt.toISOString() : null,
            ended_early: s.endedAt !== null,
            active: s.startsAt.getTime() <= now && now < end,
        };
    });
}
