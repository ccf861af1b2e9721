import { and, eq, gte, inArray, isNotNull, max, min, or, sql } from 'drizzle-orm';
import type { ChannelDelivery } from '../../common/entities';
import type { Db } from '../db/client';
import { notificationChannels, outbox } from '../db/schema';

const OK: ChannelDelivery = { status: 'ok', last_error: null, since: null };

/**
 * How each channel's deliveries are going, read from the outbox: a channel is failing while a message to it was
 * given up, or is waiting for a retry after an error, with no message accepted after it. Given-up rows from before
 * the channel's last edit do not count (the edit is how an operator fixes a token, or disabled the channel), while
 * rows still retrying do: they show whether the fix works. Callers pass channel ids they have already scoped.
 */
export async function channelDeliveries(db: Db, channelIds: number[]): Promise<Map<number, ChannelDelivery>> {
    const out = new Map<number, ChannelDelivery>(channelIds.map((id) => [id, OK]));
    if (channelIds.length === 0) return out;
    const lastAccepted = sql`coalesce((select max(s.id) from ${outbox} s where s.channel_id = ${outbox.channelId} and s.status = 'sent'), 0)`;
    const failing = await db
        .select({ channelId: outbox.channelId, lastId: max(outbox.id), since: min(outbox.createdAt) })
        .from(outbox)
        .innerJoin(notificationChannels, eq(notificationChannels.id, outbox.channelId))
        .where(
            and(
                inArray(outbox.channelId, channelIds),
                or(
                    and(eq(outbox.status, 'failed'), gte(outbox.createdAt, notificationChannels.updatedAt)),
                    and(eq(outbox.status, 'pending'), sql`${outbox.attempts} > 0`, isNotNull(outbox.lastError))
                ),
                sql`${outbox.id} > ${lastAccepted}`
            )
        )
        .groupBy(outbox.channelId);
    const lastIds = failing.map((f) => f.lastId).filter((id): id is number => id !== null);
    if (lastIds.length === 0) return out;
    const errors = new Map(
        (
            await db
                .select({ id: outbox.id, lastError: outbox.lastError })
                .from(outbox)
                .where(inArray(outbox.id, lastIds))
        ).map((r) => [r.id, r.lastError])
    );
    for (const f of failing) {
        out.set(f.channelId, {
            status: 'failing',
            last_error: (f.lastId !== null && errors.get(f.lastId)) || 'delivery failed',
            since: f.since ? new Date(f.since).toISOString() : null,
        });
    }
    return out;
}
