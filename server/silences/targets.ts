import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { configurations, monitors, servers } from '../db/schema';
import { ApiError } from '../errors';
import { inScope, type Ref, type Scope } from '../repositories/scope';

export type TargetField = 'monitor_id' | 'server_id' | 'configuration_id';

/** The one row a silence or window covers, with the names audit entries and lists show. */
export interface CoveredTarget {
    field: TargetField;
    companyId: number;
    configuration: Ref;
    server: Ref | null;
    monitor: Ref | null;
}

const WHAT: Record<TargetField, string> = {
    monitor_id: 'Monitor',
    server_id: 'Server',
    configuration_id: 'Configuration',
};

/** Finds the target among the caller's rows; another company's row answers 404, as everywhere. */
export async function findTarget(db: Db, scope: Scope, field: TargetField, id: number): Promise<CoveredTarget> {
    const base = db
        .select({
            companyId: configurations.companyId,
            configuration: { id: configurations.id, name: configurations.name },
            server: { id: servers.id, name: servers.name },
            monitor: { id: monitors.id, name: monitors.name },
        })
        .from(configurations)
        .leftJoin(servers, eq(servers.configurationId, configurations.id))
        .leftJoin(monitors, eq(monitors.configurationId, configurations.id));
    const where =
        field === 'monitor_id'
            ? eq(monitors.id, id)
            : field === 'server_id'
              ? eq(servers.id, id)
              : eq(configurations.id, id);
    const [row] = await base.where(and(where, inScope(configurations.companyId, scope))).limit(1);
    if (!row) throw new ApiError(404, `${WHAT[field]} not found`, { [field]: `${WHAT[field]} not found` });
    if (field === 'configuration_id')
        return { field, companyId: row.companyId, configuration: row.configuration, server: null, monitor: null };
    if (field === 'server_id')
        return { field, companyId: row.companyId, configuration: row.configuration, server: row.server, monitor: null };
    // A monitor's own server, not just any server of its configuration.
    const [m] = await db
        .select({ server: { id: servers.id, name: servers.name } })
        .from(monitors)
        .leftJoin(servers, eq(servers.id, monitors.serverId))
        .where(eq(monitors.id, id));
    return {
        field,
        companyId: row.companyId,
        configuration: row.configuration,
        server: m?.server ?? null,
        monitor: row.monitor,
    };
}

/** `monitor "Block production"`, for audit sentences. */
export const describeTarget = (t: CoveredTarget) =>
    t.monitor
        ? `monitor "${t.monitor.name}"`
        : t.server
          ? `server "${t.server.name}"`
          : `configuration "${t.configuration.name}"`;
