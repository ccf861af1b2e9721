import { writeAudit } from '../audit';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import type { EventName } from '../events';
import type { CoveredTarget } from './targets';

/** Who made a change: a console or API user, or someone acting from a chat (Telegram's Silence button). */
export interface By {
    name: string;
    userId?: number | null;
    ip?: string | null;
}

export const byOf = (by: By | string): By => (typeof by === 'string' ? { name: by } : by);

/**
 * A write with its audit entry in one transaction, then its event (as routes/mutate.ts does for requests), then a
 * fresh read of the active silences, so that what the caller reads next already counts the change.
 */
export async function auditedWrite<T>(
    ctx: Pick<AppContext, 'db' | 'events' | 'silences'>,
    by: By,
    event: EventName,
    work: (tx: Db) => Promise<{ result: T; target: CoveredTarget; message: string } | null>
): Promise<T | null> {
    const out = await ctx.db.transaction(async (tx) => {
        const done = await work(tx);
        if (!done) return null;
        await writeAudit(tx, {
            companyId: done.target.companyId,
            actorUserId: by.userId ?? null,
            ip: by.ip ?? null,
            configuration: done.target.configuration,
            server: done.target.server,
            monitor: done.target.monitor,
            message: done.message,
        });
        return done;
    });
    if (!out) return null;
    ctx.events.emit({
        name: event,
        configurationId: out.target.configuration.id,
        serverId: out.target.server?.id,
        monitorId: out.target.monitor?.id,
    });
    await ctx.silences.reload();
    return out.result;
}
