import { and, eq, type SQL, sql } from 'drizzle-orm';
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
    const where =
        field === 'monitor_id'
            ? eq(monitors.id, id)
            : field === 'server_id'
              ? eq(servers.id, id)
              : eq(configurations.id, id);
    const columns = {
        companyId: configurations.companyId,
        configuration: { id: configurations.id, name: configurations.name },
    };
    const inCompany = (cond: SQL) => and(cond, inScope(configurations.companyId, scope));
    const [row] =
        field === 'monitor_id'
            ? await db
                  .select({
                      ...columns,
                      server: { id: servers.id, name: servers.name },
                      monitor: { id: monitors.id, name: monitors.name },
                  })
                  .from(monitors)
                  .innerJoin(configurations, eq(configurations.id, monitors.configurationId))
                  .leftJoin(servers, eq(servers.id, monitors.serverId))
                  .where(inCompany(where))
            : field === 'server_id'
              ? await db
                    .select({ ...columns, server: { id: servers.id, name: servers.name }, monitor: sql<null>`null` })
                    .from(servers)
                    .innerJoin(configurations, eq(configurations.id, servers.configurationId))
                    .where(inCompany(where))
              : await db
                    .select({ ...columns, server: sql<null>`null`, monitor: sql<null>`null` })
                    .from(configurations)
                    .where(inCompany(where));
    if (!row) throw new ApiError(404, `${WHAT[field]} not found`, { [field]: `${WHAT[field]} not found` });
    return { field, ...row };
}

/** `monitor "Block production"`, for audit sentences. */
export const describeTarget = (t: CoveredTarget) =>
    t.monitor
        ? `monitor "${t.monitor.name}"`
        : t.server
          ? `server "${t.server.name}"`
          : `configuration "${t.configuration.name}"`;
