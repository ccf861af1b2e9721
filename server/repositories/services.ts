import { and, asc, eq } from 'drizzle-orm';
import type { Service } from '../../common/entities';
import type { ServiceType } from '../../common/service-types';
import type { Db } from '../db/client';
import { configurations, servers, services } from '../db/schema';
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
async function visibleServer(db: Db, scope: Scope, id: number) {
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
    await findService(db, scope, id);
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
    return { service: toService(row), server: s.server, configuration: s.configuration, companyId: s.companyId };
}

/** The real address of a service (password decrypted), for the egress paths only. */
export async function serviceSecret(db: Db, id: number): Promise<string | null> {
    const [row] = await db.select({ secret: services.addressSecret }).from(services).where(eq(services.id, id));
    return row?.secret ?? null;
}

export async function deleteService(db: Db, scope: Scope, id: number): Promise<ServiceWritten> {
    const found = await findService(db, scope, id);
    await db.delete(services).where(eq(services.id, id));
    return found;
}
