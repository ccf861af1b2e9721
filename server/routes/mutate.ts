import type { FastifyInstance, FastifyRequest } from 'fastify';
import { writeAudit } from '../audit';
import type { Db } from '../db/client';
import type { EventName } from '../events';
import type { Ref } from '../repositories/scope';

/** What a write changed: its audit sentence, the rows it names and the event the engine listens for. */
export interface Change {
    event: EventName;
    message: string;
    /** Null for rows outside any company (companies themselves, super admins). */
    companyId: number | null;
    configuration?: Ref | null;
    server?: Ref | null;
    monitor?: Ref | null;
    channelId?: number;
}

/** `Monitor "x" created by alice` */
export const sentence = (req: FastifyRequest, what: string, name: string, verb: string) =>
    `${what} "${name}" ${verb} by ${req.actor.username}`;

/**
 * Runs a write and its audit entry in one transaction, so a change is never left unaudited (and a failed audit
 * undoes the change); the event goes out only after the commit, so listeners read committed rows.
 */
export async function mutate<T>(
    app: FastifyInstance,
    req: FastifyRequest,
    work: (tx: Db) => Promise<{ result: T; change: Change }>
): Promise<T> {
    const { result, change } = await app.ctx.db.transaction(async (tx) => {
        const out = await work(tx);
        await writeAudit(tx, {
            companyId: out.change.companyId,
            actorUserId: req.actor.id,
            ip: req.ip,
            configuration: out.change.configuration,
            server: out.change.server,
            monitor: out.change.monitor,
            message: out.change.message,
        });
        return out;
    });
    app.ctx.dbHealth.succeeded('write');
    app.ctx.events.emit({
        name: change.event,
        configurationId: change.configuration?.id,
        serverId: change.server?.id,
        monitorId: change.monitor?.id,
        channelId: change.channelId,
    });
    return result;
}
