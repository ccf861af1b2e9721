import { inArray, sql } from 'drizzle-orm';
import type { ChainHaltRef } from '../../common/entities';
import type { Db } from '../db/client';
import { monitorStates } from '../db/schema';

/**
 * The chain halt each monitor's open incident is part of, as the engine keeps it in the monitor's persisted alert
 * state (server/engine/chain-halt.ts). Callers pass monitor ids they have already scoped.
 */
export async function chainHaltsOf(db: Db, monitorIds: number[]): Promise<Map<number, ChainHaltRef>> {
    const out = new Map<number, ChainHaltRef>();
    if (monitorIds.length === 0) return out;
    const rows = await db
        .select({ monitorId: monitorStates.monitorId, chain: sql<unknown>`${monitorStates.state}->'alert'->'chain'` })
        .from(monitorStates)
        .where(inArray(monitorStates.monitorId, monitorIds));
    for (const { monitorId, chain } of rows) {
        const c = chain as { id?: unknown; height?: unknown; since?: unknown } | null;
        if (!c || typeof c.id !== 'string' || typeof c.height !== 'number' || typeof c.since !== 'number') continue;
        out.set(monitorId, { id: c.id, height: c.height, since: new Date(c.since).toISOString() });
    }
    return out;
}
