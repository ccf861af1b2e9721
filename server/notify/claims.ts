import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * How long a process holds the rows it is sending in the cluster profile. A process killed while sending leaves
 * them to another after this; a message the destination had accepted just before the kill then goes out twice,
 * the one duplicate left.
 */
export const CLAIM_MS = 60_000;

/**
 * Claims a channel's due rows for this process in the cluster profile, where every worker runs a dispatcher: the
 * rows' next attempt moves to the end of the claim, under `FOR UPDATE SKIP LOCKED`, so another process sees them
 * as not due and leaves the channel alone (a channel's later rows wait behind its first, so the order holds).
 * Answers the ids claimed, a prefix of `ids`: a row another process claimed first ends the prefix.
 */
export async function claimRows(db: Db, ids: number[], now: number): Promise<number[]> {
    if (ids.length === 0) return [];
    const until = new Date(now + CLAIM_MS).toISOString();
    const result = await db.execute(sql`
        update outbox set next_attempt_at = ${until}::timestamptz
        where id in (
            select id from outbox
            where id in (${sql.join(ids, sql`, `)}) and status = 'pending'
                and next_attempt_at <= ${new Date(now).toISOString()}::timestamptz
            for update skip locked
        )
        returning id`);
    const { rows } = result as unknown as { rows: { id: number }[] };
    const claimed = new Set(rows.map((r) => Number(r.id)));
    const prefix: number[] = [];
    for (const id of ids) {
        if (!claimed.has(id)) break;
        prefix.push(id);
    }
    await releaseRows(
        db,
        [...claimed].filter((id) => !prefix.includes(id)),
        now
    );
    return prefix;
}

/** Gives back claimed rows this process did not send or reschedule (its pacing budget ran out, it is stopping). */
export async function releaseRows(db: Db, ids: number[], now: number): Promise<void> {
    if (ids.length === 0) return;
    await db.execute(sql`
        update outbox set next_attempt_at = ${new Date(now).toISOString()}::timestamptz
        where id in (${sql.join(ids, sql`, `)}) and status = 'pending'
            and next_attempt_at = ${new Date(now + CLAIM_MS).toISOString()}::timestamptz`);
}
