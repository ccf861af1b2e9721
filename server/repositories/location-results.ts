import { and, asc, eq, sql } from 'drizzle-orm';
import type { LocationResult, MonitorLocationResults } from '../../common/locations';
import type { Db } from '../db/client';
import { configurations, monitorStates, monitors } from '../db/schema';
import { inScope, type Scope } from './scope';

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

/**
 * Each location's latest result of every enabled monitor the caller sees that several locations check, for the
 * Network Status page: one query, and an empty list in the embedded profile, which checks from one place.
 */
export async function locationResultsIn(db: Db, scope: Scope): Promise<MonitorLocationResults[]> {
    const rows = await db
        .select({ id: monitors.id, locations: sql<unknown>`${monitorStates.state}->'locations'` })
        .from(monitorStates)
        .innerJoin(monitors, eq(monitors.id, monitorStates.monitorId))
        .innerJoin(configurations, eq(configurations.id, monitors.configurationId))
        .where(
            and(
                inScope(configurations.companyId, scope),
                eq(monitors.isEnabled, true),
                sql`jsonb_typeof(${monitorStates.state}->'locations') = 'array'`
            )
        )
        .orderBy(asc(monitors.id));
    return rows.flatMap((r) =>
        Array.isArray(r.locations) && r.locations.length > 0
            ? [{ monitor_id: r.id, location_results: r.locations as LocationResult[] }]
            : []
    );
}
