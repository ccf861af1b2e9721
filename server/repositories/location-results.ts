import { eq, sql } from 'drizzle-orm';
import type { LocationResult } from '../../common/locations';
import type { Db } from '../db/client';
import { monitorStates } from '../db/schema';

/**
 * Each location's latest result of a monitor, as the engine saved them with its state when several locations
 * checked it (engine.ts, across-locations.ts); null for a monitor checked from one place.
 */
export async function locationResultsOf(db: Db, monitorId: number): Promise<LocationResult[] | null> {
    const [row] = await db
        .select({ locations: sql<unknown>`${monitorStates.state}->'locations'` })
        .from(monitorStates)
        .where(eq(monitorStates.monitorId, monitorId));
    const list = row?.locations;
    return Array.isArray(list) && list.length > 0 ? (list as LocationResult[]) : null;
}
