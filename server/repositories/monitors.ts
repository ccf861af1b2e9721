import { and, asc, count, eq, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Monitor } from '../../common/entities';
import { MONITOR_TYPES, type MonitorType } from '../../common/monitor-types';
import type { Db } from '../db/client';
import { configurations, monitors, servers } from '../db/schema';
import type { MonitorRow } from '../db/schema';
import { notFound } from '../errors';
import { boolFilter, choiceFilter, idFilter, type ListPlan, type ListSpec, paged, textFilter } from './list-query';
import { inScope, type Scope } from './scope';

export interface MonitorBody {
    name: string;
    is_enabled: boolean;
    configuration_id: number;
    server_id: number | null;
    type: MonitorType;
    configuration_object?: string | null;
    /** On create only: the service this monitor is created with (docs/spec.md §9's "Create Monitor?"). */
    service_id?: number | null;
    /** The encrypted URL when the settings' `address` (then masked) holds a password; see auth/url-credentials. */
    address_secret?: string | null;
    /** Undefined on an edit keeps the stored value. */
    locations?: string[] | null;
    confirm?: number;
}

/** A monitor body that passed every rule (validation/monitor.ts): the rows it names and its normalised settings JSON. */
export interface CheckedMonitor {
    configuration: { id: number; name: string; companyId: number };
    server: { id: number; name: string } | null;
    settings: string;
}

/** Only what toMonitor reads: created_at and updated_at would be decoded into Dates for every row and dropped. */
export const monitorColumns = {
    id: monitors.id,
    name: monitors.name,
    type: monitors.type,
    isEnabled: monitors.isEnabled,
    configurationId: monitors.configurationId,
    serverId: monitors.serverId,
    serviceId: monitors.serviceId,
    configurationObject: monitors.configurationObject,
    status: monitors.status,
    lastError: monitors.lastError,
    lastCheck: monitors.lastCheck,
    locations: monitors.locations,
    confirm: monitors.confirm,
};

const columns = {
    monitor: monitorColumns,
    server: { id: servers.id, name: servers.name, address: servers.address },
    configuration: {
        id: configurations.id,
        name: configurations.name,
        chain: configurations.chain,
        companyId: configurations.companyId,
    },
};

type Joined = {
    monitor: Omit<MonitorRow, 'createdAt' | 'updatedAt' | 'addressSecret'>;
    server: { id: number; name: string; address: string } | null;
    configuration: { id: number; name: string; chain: string; companyId: number };
};

/** What toMonitor reads: the configuration's ref, whether joined or already at hand (a configuration's children). */
type MonitorParts = Omit<Joined, 'configuration'> & { configuration: { id: number; name: string; chain: string } };

export const toMonitor = ({ monitor: m, server, configuration: c }: MonitorParts): Monitor => ({
    id: m.id,
    name: m.name,
    type: m.type,
    is_enabled: m.isEnabled,
    configuration_id: m.configurationId,
    server_id: m.serverId,
    service_id: m.serviceId,
    server,
    configuration: { id: c.id, name: c.name, chain: c.chain },
    configuration_object: m.configurationObject,
    status: m.status,
    last_error: m.lastError,
    last_check: m.lastCheck ? m.lastCheck.toISOString() : null,
    locations: m.locations,
    confirm: m.confirm,
});

const selectMonitors = (db: Db) =>
    db
        .select(columns)
        .from(monitors)
        .innerJoin(configurations, eq(configurations.id, monitors.configurationId))
        .leftJoin(servers, eq(servers.id, monitors.serverId));

function findMonitors(db: Db, scope: Scope, where?: SQL): Promise<Joined[]> {
    return selectMonitors(db)
        .where(and(inScope(configurations.companyId, scope), where))
        .orderBy(asc(monitors.id));
}

/** Monitors with their server and configuration, in one query; `where` may name any of the three tables. */
export async function listMonitors(db: Db, scope: Scope, where?: SQL): Promise<Monitor[]> {
    return (await findMonitors(db, scope, where)).map(toMonitor);
}

const hasError = and(eq(monitors.status, true), ne(monitors.lastError, ''));

/** The list's react-admin parameters: q on the name, one configuration or server, type, enabled, health. */
export const monitorList: ListSpec = {
    resource: 'monitors',
    id: monitors.id,
    sort: {
        id: monitors.id,
        name: sql`lower(${monitors.name})`,
        type: monitors.type,
        is_enabled: monitors.isEnabled,
        status: monitors.status,
        last_check: monitors.lastCheck,
        'configuration.name': sql`lower(${configurations.name})`,
        'server.name': sql`lower(${servers.name})`,
    },
    filter: {
        id: idFilter(monitors.id),
        q: textFilter(monitors.name),
        configuration_id: idFilter(monitors.configurationId),
        server_id: idFilter(monitors.serverId),
        company_id: idFilter(configurations.companyId),
        type: choiceFilter(Object.fromEntries(MONITOR_TYPES.map((t) => [t, eq(monitors.type, t)]))),
        is_enabled: boolFilter(monitors.isEnabled),
        // As monitorHealth derives it (common/health.ts).
        status: choiceFilter({
            error: eq(monitors.status, false),
            warning: hasError,
            healthy: and(eq(monitors.status, true), or(isNull(monitors.lastError), eq(monitors.lastError, ''))),
        }),
    },
};

/** One page (or, without `range`, all) of the monitors a list request names, and how many there are. */
export async function pageMonitors(db: Db, plan: ListPlan) {
    const rows = (await paged(selectMonitors(db).where(plan.where).$dynamic(), plan)).map(toMonitor);
    const total = plan.page
        ? ((
              await db
                  .select({ n: count() })
                  .from(monitors)
                  // The filters name monitors and configurations only: the count needs no servers join. Every
                  // monitor has its configuration, so a left join counts the same rows, and PostgreSQL drops it
                  // when no filter names the configuration (the super admin's unfiltered list of 20,000).
                  .leftJoin(configurations, eq(configurations.id, monitors.configurationId))
                  .where(plan.where)
          )[0]?.n ?? 0)
        : rows.length;
    return { rows, total };
}

/**
 * The dashboard lists (docs/spec.md §4): failed = status false; warnings = status true with a last error. Only enabled
 * monitors of enabled configurations and servers count. One indexed query, whatever the number of monitors.
 */
export function listByHealth(db: Db, scope: Scope, health: 'failed' | 'warnings'): Promise<Monitor[]> {
    const healthWhere = health === 'failed' ? eq(monitors.status, false) : hasError;
    return listMonitors(
        db,
        scope,
        and(
            healthWhere,
            eq(monitors.isEnabled, true),
            eq(configurations.isEnabled, true),
            or(isNull(monitors.serverId), eq(servers.isEnabled, true))
        )
    );
}

async function findMonitor(db: Db, scope: Scope, id: number): Promise<Joined> {
    const [row] = await findMonitors(db, scope, eq(monitors.id, id));
    if (!row) throw notFound('Monitor');
    return row;
}

export async function getMonitor(db: Db, scope: Scope, id: number): Promise<Monitor> {
    return toMonitor(await findMonitor(db, scope, id));
}

/** A written monitor and the company it belongs to (for the audit entry). */
type Written = { monitor: Monitor; companyId: number };

async function written(db: Db, id: number): Promise<Written> {
    const row = await findMonitor(db, null, id);
    return { monitor: toMonitor(row), companyId: row.configuration.companyId };
}

/** New monitors start healthy and unchecked; status, last_error and last_check belong to the engine. */
export async function createMonitor(db: Db, body: MonitorBody, checked: CheckedMonitor): Promise<Written> {
    const [row] = await db
        .insert(monitors)
        .values({
            name: body.name,
            isEnabled: body.is_enabled,
            configurationId: checked.configuration.id,
            serverId: checked.server?.id ?? null,
            serviceId: body.service_id ?? null,
            type: body.type,
            configurationObject: checked.settings,
            addressSecret: body.address_secret ?? null,
            locations: body.locations ?? null,
            confirm: body.confirm ?? 1,
        })
        .returning({ id: monitors.id });
    if (!row) throw new Error('insert returned nothing');
    return written(db, row.id);
}

export async function updateMonitor(
    db: Db,
    scope: Scope,
    id: number,
    body: MonitorBody,
    checked: CheckedMonitor
): Promise<Written> {
    await findMonitor(db, scope, id);
    await db
        .update(monitors)
        .set({
            name: body.name,
            isEnabled: body.is_enabled,
            configurationId: checked.configuration.id,
            serverId: checked.server?.id ?? null,
            type: body.type,
            configurationObject: checked.settings,
            addressSecret: body.address_secret ?? null,
            ...(body.locations !== undefined ? { locations: body.locations } : {}),
            ...(body.confirm !== undefined ? { confirm: body.confirm } : {}),
            updatedAt: new Date(),
        })
        .where(eq(monitors.id, id));
    return written(db, id);
}

/** The encrypted real address of a monitor's settings, for sealing an edit that sends the mask back. */
export async function monitorSecret(db: Db, id: number): Promise<string | null> {
    const [row] = await db.select({ secret: monitors.addressSecret }).from(monitors).where(eq(monitors.id, id));
    return row?.secret ?? null;
}

export async function deleteMonitor(db: Db, scope: Scope, id: number): Promise<Written> {
    const row = await findMonitor(db, scope, id);
    await db.delete(monitors).where(eq(monitors.id, id));
    return { monitor: toMonitor(row), companyId: row.configuration.companyId };
}
