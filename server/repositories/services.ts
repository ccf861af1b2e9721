import { and, asc, eq, ne } from 'drizzle-orm';
import type { Service } from '../../common/entities';
import { MONITOR_CATALOGUE } from '../../common/monitor-types';
import type { ServiceType } from '../../common/service-types';
import type { Db } from '../db/client';
import { configurations, monitors, servers, services } from '../db/schema';
import type { ServiceRow } from '../db/schema';
import { ApiError, badRequest, notFound } from '../errors';
import { inScope, type Ref, type Scope } from './scope';
import { findServer } from './servers';

export interface ServiceBody {
    name: string;
    address: string;
    is_enabled: boolean;
    type: ServiceType;
    server_id: number;
    /** The encrypted URL when `address` (then masked) holds a password; see auth/url-credentials. */
    address_secret: string | null;
}

export const toService = (r: ServiceRow): Service => ({
    id: r.id,
    name: r.name,
    type: r.type,
    address: r.address,
    is_enabled: r.isEnabled,
    server_id: r.serverId,
});

export async function listServerServices(db: Db, scope: Scope, serverId: number): Promise<Service[]> {
    await findServer(db, scope, serverId);
    const rows = await db.select().from(services).where(eq(services.serverId, serverId)).orderBy(asc(services.id));
    return rows.map(toService);
}

/** A service and the refs its audit entry names. */
export interface ServiceWritten {
    service: Service;
    server: Ref;
    configuration: Ref;
    companyId: number;
}

export async function findService(db: Db, scope: Scope, id: number): Promise<ServiceWritten> {
    const [row] = await db
        .select({
            service: services,
            server: { id: servers.id, name: servers.name },
            configuration: { id: configurations.id, name: configurations.name },
            companyId: configurations.companyId,
        })
        .from(services)
        .innerJoin(servers, eq(servers.id, services.serverId))
        .innerJoin(configurations, eq(configurations.id, servers.configurationId))
        .where(and(eq(services.id, id), inScope(configurations.companyId, scope)));
    if (!row) throw notFound('Service');
    return { ...row, service: toService(row.service) };
}

/** A server named in a body must be visible to the caller; another company's server reads as missing. */
export async function visibleServer(db: Db, scope: Scope, id: number) {
    try {
        return await findServer(db, scope, id);
    } catch (err) {
        throw err instanceof ApiError && err.statusCode === 404 ? badRequest({ server_id: 'Server not found' }) : err;
    }
}

export async function createService(db: Db, scope: Scope, body: ServiceBody): Promise<ServiceWritten> {
    const s = await visibleServer(db, scope, body.server_id);
    const [row] = await db
        .insert(services)
        .values({
            serverId: s.server.id,
            name: body.name,
            type: body.type,
            address: body.address,
            addressSecret: body.address_secret,
            isEnabled: body.is_enabled,
        })
        .returning();
    if (!row) throw new Error('insert returned nothing');
    return { service: toService(row), server: s.server, configuration: s.configuration, companyId: s.companyId };
}

export async function updateService(db: Db, scope: Scope, id: number, body: ServiceBody): Promise<ServiceWritten> {
    const before = await findService(db, scope, id);
    const s = await visibleServer(db, scope, body.server_id);
    const [row] = await db
        .update(services)
        .set({
            serverId: s.server.id,
            name: body.name,
            type: body.type,
            address: body.address,
            addressSecret: body.address_secret,
            isEnabled: body.is_enabled,
            updatedAt: new Date(),
        })
        .where(eq(services.id, id))
        .returning();
    if (!row) throw notFound('Service');
    await followService(db, before.service, toService(row));
    return { service: toService(row), server: s.server, configuration: s.configuration, companyId: s.companyId };
}

/** The real address of a service (password decrypted), for the egress paths only. */
export async function serviceSecret(db: Db, id: number): Promise<string | null> {
    const [row] = await db.select({ secret: services.addressSecret }).from(services).where(eq(services.id, id));
    return row?.secret ?? null;
}

/**
 * The monitors created with a service keep its address and name, until the user gives the monitor an address or
 * name of its own: what still equals the service's old value follows the new one.
 */
async function followService(db: Db, before: Service, after: Service): Promise<void> {
    if (before.address === after.address && before.name === after.name && before.server_id === after.server_id) return;
    const linked = await db.select().from(monitors).where(eq(monitors.serviceId, before.id));
    // A password in the service's address travels with it, sealed, as the monitor's own.
    const [sealed] = await db
        .select({ secret: services.addressSecret })
        .from(services)
        .where(eq(services.id, after.id));
    for (const m of linked) {
        let settings: Record<string, unknown>;
        try {
            settings = JSON.parse(m.configurationObject) as Record<string, unknown>;
        } catch {
            continue;
        }
        const follows = settings.address === before.address;
        if (follows) settings.address = after.address;
        if (settings.name === before.name) settings.name = after.name;
        const name =
            m.name === before.name
                ? after.name
                : m.name === `${before.name} disk space`
                  ? `${after.name} disk space`
                  : m.name;
        await db
            .update(monitors)
            .set({
                name,
                serverId: after.server_id,
                configurationObject: JSON.stringify(settings),
                ...(follows ? { addressSecret: sealed?.secret ?? null } : {}),
                updatedAt: new Date(),
            })
            .where(eq(monitors.id, m.id));
    }
}

export interface MonitorRef {
    id: number;
    name: string;
    type: string;
}

/** What deleting a service affects: the monitors created with it, and those left without a service to read. */
export interface ServiceDependents {
    removed: MonitorRef[];
    losing_data_source: MonitorRef[];
}

export async function serviceDependents(db: Db, scope: Scope, id: number): Promise<ServiceDependents> {
    const { service } = await findService(db, scope, id);
    const ref = { id: monitors.id, name: monitors.name, type: monitors.type, serviceId: monitors.serviceId };
    const onServer = await db.select(ref).from(monitors).where(eq(monitors.serverId, service.server_id));
    const others = await db
        .select({ type: services.type })
        .from(services)
        .where(and(eq(services.serverId, service.server_id), ne(services.id, id), eq(services.isEnabled, true)));
    const left = new Set(others.map((o) => o.type));
    const removed: MonitorRef[] = [];
    const losing: MonitorRef[] = [];
    const linked = await db.select(ref).from(monitors).where(eq(monitors.serviceId, id));
    for (const m of linked) removed.push({ id: m.id, name: m.name, type: m.type });
    for (const m of onServer) {
        if (m.serviceId === id) continue;
        const sources = MONITOR_CATALOGUE[m.type].reads;
        if (!service.is_enabled || !sources.includes(service.type)) continue;
        if (!sources.some((t) => left.has(t))) losing.push({ id: m.id, name: m.name, type: m.type });
    }
    return { removed, losing_data_source: losing };
}

/** Deletes the service and the monitors created with it (named in the answer's `removed_monitors`). */
export async function deleteService(
    db: Db,
    scope: Scope,
    id: number
): Promise<ServiceWritten & { dependents: ServiceDependents }> {
    const found = await findService(db, scope, id);
    const dependents = await serviceDependents(db, scope, id);
    await db.delete(monitors).where(eq(monitors.serviceId, id));
    await db.delete(services).where(eq(services.id, id));
    return { ...found, dependents };
}
