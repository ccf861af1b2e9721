import { and, asc, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Monitor, Server } from '../../common/entities';
import type { Db } from '../db/client';
import { configurations, monitors, servers } from '../db/schema';
import type { ServerRow } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { boolFilter, idFilter, type ListPlan, type ListSpec, paged, textFilter } from './list-query';
import { groupBy } from './group';
import { listMonitors } from './monitors';
import { inScope, type Ref, type Scope } from './scope';

export interface ServerBody {
    name: string;
    /** Masked when it holds a password; the whole address is then in `address_secret`, encrypted. */
    address: string;
    address_secret: string | null;
    is_enabled: boolean;
    configuration_id: number;
}

const selectServers = (db: Db) =>
    db
        .select({ s: servers, c: { id: configurations.id, name: configurations.name, chain: configurations.chain } })
        .from(servers)
        .innerJoin(configurations, eq(configurations.id, servers.configurationId));

type Joined = Awaited<ReturnType<ReturnType<typeof selectServers>['execute']>>;

/**
 * Servers with their configuration and monitors; `where` may name the servers or configurations table. A caller
 * that already holds the monitors of the same rows passes them to save a query.
 */
export async function listServers(db: Db, scope: Scope, where?: SQL, monitorsOf?: Monitor[]): Promise<Server[]> {
    const rows = await selectServers(db)
        .where(and(inScope(configurations.companyId, scope), where))
        .orderBy(asc(servers.id));
    return withMonitors(rows, monitorsOf ?? (rows.length ? await listMonitors(db, scope, where) : []));
}

/** The list's react-admin parameters: q on name or address, one configuration, enabled. */
export const serverList: ListSpec = {
    resource: 'servers',
    id: servers.id,
    sort: {
        id: servers.id,
        name: sql`lower(${servers.name})`,
        address: servers.address,
        is_enabled: servers.isEnabled,
        createdAt: servers.createdAt,
        updatedAt: servers.updatedAt,
        'configuration.name': sql`lower(${configurations.name})`,
    },
    filter: {
        id: idFilter(servers.id),
        q: textFilter(servers.name, servers.address),
        configuration_id: idFilter(servers.configurationId),
        company_id: idFilter(configurations.companyId),
        is_enabled: boolFilter(servers.isEnabled),
    },
};

/** One page (or, without `range`, all) of the servers a list request names, and how many there are. */
export async function pageServers(db: Db, scope: Scope, plan: ListPlan) {
    const rows = await paged(selectServers(db).where(plan.where).$dynamic(), plan);
    const ids = rows.map((r) => r.s.id);
    const monitorsOf = rows.length
        ? await listMonitors(db, scope, plan.page ? inArray(monitors.serverId, ids) : plan.where)
        : [];
    const total = plan.page
        ? ((
              await db
                  .select({ n: count() })
                  .from(servers)
                  // Every server has its configuration: a left join counts the same rows and is dropped when unused.
                  .leftJoin(configurations, eq(configurations.id, servers.configurationId))
                  .where(plan.where)
          )[0]?.n ?? 0)
        : rows.length;
    return { rows: withMonitors(rows, monitorsOf), total };
}

function withMonitors(rows: Joined, monitorsOf: Monitor[]): Server[] {
    const byServer = groupBy(monitorsOf, (m) => m.server_id);
    return rows.map(({ s, c }) => ({
        id: s.id,
        name: s.name,
        address: s.address,
        is_enabled: s.isEnabled,
        configuration_id: s.configurationId,
        configuration: c,
        monitors: byServer.get(s.id) ?? [],
        createdAt: s.createdAt.toISOString(),
        updatedAt: s.updatedAt.toISOString(),
    }));
}

export async function getServer(db: Db, scope: Scope, id: number): Promise<Server> {
    const [row] = await listServers(db, scope, eq(servers.id, id));
    if (!row) throw notFound('Server');
    return row;
}

/** The bare server with its configuration's name and company, if the caller may see it. */
export async function findServer(db: Db, scope: Scope, id: number) {
    const [row] = await db
        .select({
            server: servers,
            configuration: { id: configurations.id, name: configurations.name },
            companyId: configurations.companyId,
        })
        .from(servers)
        .innerJoin(configurations, eq(configurations.id, servers.configurationId))
        .where(and(eq(servers.id, id), inScope(configurations.companyId, scope)));
    if (!row) throw notFound('Server');
    return row;
}

/** A server and the refs its audit entry names. */
export interface ServerWritten {
    server: Server;
    configuration: Ref;
    companyId: number;
}

async function visibleConfiguration(db: Db, scope: Scope, id: number) {
    const [c] = await db
        .select({ id: configurations.id, name: configurations.name, companyId: configurations.companyId })
        .from(configurations)
        .where(and(eq(configurations.id, id), inScope(configurations.companyId, scope)));
    if (!c) throw badRequest({ configuration_id: 'Configuration not found' });
    return c;
}

export async function createServer(db: Db, scope: Scope, body: ServerBody): Promise<ServerWritten> {
    const c = await visibleConfiguration(db, scope, body.configuration_id);
    const [row] = await db
        .insert(servers)
        .values({
            configurationId: c.id,
            name: body.name,
            address: body.address,
            addressSecret: body.address_secret,
            isEnabled: body.is_enabled,
        })
        .returning({ id: servers.id });
    if (!row) throw new Error('insert returned nothing');
    return { server: await getServer(db, null, row.id), configuration: c, companyId: c.companyId };
}

/** Moving a server to another configuration takes its monitors along: a monitor's server is in its configuration. */
export async function updateServer(db: Db, scope: Scope, id: number, body: ServerBody): Promise<ServerWritten> {
    const before: ServerRow = (await findServer(db, scope, id)).server;
    const c = await visibleConfiguration(db, scope, body.configuration_id);
    await db
        .update(servers)
        .set({
            configurationId: c.id,
            name: body.name,
            address: body.address,
            addressSecret: body.address_secret,
            isEnabled: body.is_enabled,
            updatedAt: new Date(),
        })
        .where(eq(servers.id, id));
    if (before.configurationId !== c.id) {
        await db
            .update(monitors)
            .set({ configurationId: c.id, updatedAt: new Date() })
            .where(eq(monitors.serverId, id));
    }
    return { server: await getServer(db, null, id), configuration: c, companyId: c.companyId };
}

/** Its services and monitors go with it (foreign keys cascade). */
export async function deleteServer(db: Db, scope: Scope, id: number): Promise<ServerWritten> {
    const server = await getServer(db, scope, id);
    const { configuration, companyId } = await findServer(db, scope, id);
    await db.delete(servers).where(eq(servers.id, id));
    return { server, configuration, companyId };
}
