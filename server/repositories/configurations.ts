import { and, asc, count, eq, inArray, not, type SQL, sql } from 'drizzle-orm';
import type { ChainEndpoint } from '../../common/chain-endpoints';
import type { ChannelLink, Configuration, LinkRouting } from '../../common/entities';
import type { Db } from '../db/client';
import {
    companies,
    configurationChannels,
    configurations,
    monitors,
    notificationChannels,
    servers,
} from '../db/schema';
import type { ConfigurationRow } from '../db/schema';
import { badRequest, conflict, notFound } from '../errors';
import { boolFilter, choiceFilter, idFilter, type ListPlan, type ListSpec, paged, textFilter } from './list-query';
import { groupBy, isUniqueViolation } from './group';
import { monitorColumns, toMonitor } from './monitors';
import { inScope, type Scope } from './scope';

export interface ConfigurationBody {
    name: string;
    chain: string;
    is_enabled: boolean;
    /** Absent: none on create, the stored ones on update. */
    chain_endpoints?: ChainEndpoint[];
}

const selectConfigurations = (db: Db) =>
    db
        .select({ c: configurations, company: { id: companies.id, name: companies.name } })
        .from(configurations)
        .innerJoin(companies, eq(companies.id, configurations.companyId));

type Joined = Awaited<ReturnType<ReturnType<typeof selectConfigurations>['execute']>>;

/** Configurations with their company, servers and monitors; `where` may name the configurations table. */
export async function listConfigurations(db: Db, scope: Scope, where?: SQL): Promise<Configuration[]> {
    const rows = await selectConfigurations(db)
        .where(and(inScope(configurations.companyId, scope), where))
        .orderBy(asc(configurations.id));
    return withChildren(db, rows);
}

/** Whether any monitor of the row's configuration meets `cond`, which names that monitor `hm`. */
const anyMonitor = (cond: string) =>
    sql`exists (select 1 from ${monitors} hm where hm.configuration_id = ${configurations.id} and ${sql.raw(cond)})`;
const failing = anyMonitor('hm.status = false');
const warning = anyMonitor("hm.status and hm.last_error <> ''");

/** The list's react-admin parameters (docs/spec.md §2, §4): q on name or chain, company, enabled, derived health. */
export const configurationList: ListSpec = {
    resource: 'configurations',
    id: configurations.id,
    sort: {
        id: configurations.id,
        name: sql`lower(${configurations.name})`,
        chain: sql`lower(${configurations.chain})`,
        is_enabled: configurations.isEnabled,
        createdAt: configurations.createdAt,
        updatedAt: configurations.updatedAt,
        'company.name': sql`lower(${companies.name})`,
    },
    filter: {
        id: idFilter(configurations.id),
        q: textFilter(configurations.name, configurations.chain),
        company_id: idFilter(configurations.companyId),
        is_enabled: boolFilter(configurations.isEnabled),
        // As groupHealth derives it (common/health.ts): error if any monitor fails, else warning if any has an error.
        status: choiceFilter({
            error: failing,
            warning: and(not(failing), warning),
            healthy: and(not(failing), not(warning)),
        }),
    },
};

/** One page (or, without `range`, all) of the configurations a list request names, and how many there are. */
export async function pageConfigurations(db: Db, plan: ListPlan) {
    const rows = await paged(selectConfigurations(db).where(plan.where).$dynamic(), plan);
    const items = await withChildren(db, rows);
    const total = plan.page ? await countOf(db, plan.where) : items.length;
    return { rows: items, total };
}

async function countOf(db: Db, where: SQL | undefined): Promise<number> {
    const [row] = await db.select({ n: count() }).from(configurations).where(where);
    return row?.n ?? 0;
}

/**
 * Nests each row's servers and monitors: two queries by their indexed configuration_id, whatever the number of rows.
 * The rows are already the caller's, so the children need no scope, and their `configuration` refs come from the rows
 * rather than from a join back to the configurations table.
 */
async function withChildren(db: Db, rows: Joined): Promise<Configuration[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.c.id);
    const monitorRows = await db
        .select(monitorColumns)
        .from(monitors)
        .where(inArray(monitors.configurationId, ids))
        .orderBy(asc(monitors.id));
    const serverRows = await db
        .select()
        .from(servers)
        .where(inArray(servers.configurationId, ids))
        .orderBy(asc(servers.id));
    // A monitor's server is one of its configuration's (the API refuses any other), so it is among these rows; one
    // that is not is read by itself rather than joined for all 500 monitors of a page.
    const serverRef = new Map<number, { id: number; name: string; address: string }>(
        serverRows.map((s) => [s.id, { id: s.id, name: s.name, address: s.address }])
    );
    const strays = [
        ...new Set(monitorRows.flatMap((m) => (m.serverId && !serverRef.has(m.serverId) ? [m.serverId] : []))),
    ];
    if (strays.length > 0)
        for (const s of await db
            .select({ id: servers.id, name: servers.name, address: servers.address })
            .from(servers)
            .where(inArray(servers.id, strays)))
            serverRef.set(s.id, s);
    const monitorsOf = groupBy(monitorRows, (m) => m.configurationId);
    const serversOf = groupBy(serverRows, (s) => s.configurationId);
    return rows.map(({ c, company }) => {
        const configuration = { id: c.id, name: c.name, chain: c.chain };
        return {
            id: c.id,
            name: c.name,
            chain: c.chain,
            is_enabled: c.isEnabled,
            company,
            company_id: c.companyId,
            chain_endpoints: c.chainEndpoints,
            // Each monitor is listed once, here, with its server_id: nesting it in its server as well doubled the
            // size of the list (about 1 MB for a company of 50 configurations).
            servers: (serversOf.get(c.id) ?? []).map((s) => ({
                id: s.id,
                name: s.name,
                address: s.address,
                is_enabled: s.isEnabled,
                configuration_id: s.configurationId,
                configuration,
                createdAt: s.createdAt.toISOString(),
                updatedAt: s.updatedAt.toISOString(),
            })),
            monitors: (monitorsOf.get(c.id) ?? []).map((monitor) =>
                toMonitor({
                    monitor,
                    server: monitor.serverId ? (serverRef.get(monitor.serverId) ?? null) : null,
                    configuration,
                })
            ),
            createdAt: c.createdAt.toISOString(),
            updatedAt: c.updatedAt.toISOString(),
        };
    });
}

export async function getConfiguration(db: Db, scope: Scope, id: number): Promise<Configuration> {
    const [row] = await listConfigurations(db, scope, eq(configurations.id, id));
    if (!row) throw notFound('Configuration');
    return row;
}

/** The bare row, if the caller may see it. */
export async function findConfiguration(db: Db, scope: Scope, id: number): Promise<ConfigurationRow> {
    const [row] = await db
        .select()
        .from(configurations)
        .where(and(eq(configurations.id, id), inScope(configurations.companyId, scope)));
    if (!row) throw notFound('Configuration');
    return row;
}

export async function createConfiguration(db: Db, companyId: number, body: ConfigurationBody): Promise<Configuration> {
    const [row] = await db
        .insert(configurations)
        .values({
            companyId,
            name: body.name,
            chain: body.chain,
            isEnabled: body.is_enabled,
            chainEndpoints: body.chain_endpoints ?? [],
        })
        .returning({ id: configurations.id });
    if (!row) throw new Error('insert returned nothing');
    return getConfiguration(db, null, row.id);
}

/** A configuration never changes company: its servers, monitors and channel links belong to that company. */
export async function updateConfiguration(
    db: Db,
    scope: Scope,
    id: number,
    body: ConfigurationBody & { company_id?: number | null }
): Promise<Configuration> {
    const before = await findConfiguration(db, scope, id);
    if (body.company_id !== undefined && body.company_id !== null && body.company_id !== before.companyId) {
        throw badRequest({ company_id: 'A configuration cannot be moved to another company' });
    }
    await db
        .update(configurations)
        .set({
            name: body.name,
            chain: body.chain,
            isEnabled: body.is_enabled,
            ...(body.chain_endpoints ? { chainEndpoints: body.chain_endpoints } : {}),
            updatedAt: new Date(),
        })
        .where(eq(configurations.id, id));
    return getConfiguration(db, null, id);
}

/** One statement: the foreign keys cascade to servers, services, monitors (and their state) and channel links. */
export async function deleteConfiguration(db: Db, scope: Scope, id: number): Promise<Configuration> {
    const before = await getConfiguration(db, scope, id);
    await db.delete(configurations).where(eq(configurations.id, id));
    return before;
}

const linkColumns = {
    id: configurationChannels.id,
    configuration_id: configurationChannels.configurationId,
    notification_channel_id: configurationChannels.notificationChannelId,
    notification_channel: {
        id: notificationChannels.id,
        type: notificationChannels.type,
        name: notificationChannels.name,
        is_enabled: notificationChannels.isEnabled,
    },
    min_severity: configurationChannels.minSeverity,
    send_recoveries: configurationChannels.sendRecoveries,
    send_reminders: configurationChannels.sendReminders,
    escalate_after_minutes: configurationChannels.escalateAfterMinutes,
};

const routingColumns = (r: LinkRouting) => ({
    ...(r.min_severity !== undefined ? { minSeverity: r.min_severity } : {}),
    ...(r.send_recoveries !== undefined ? { sendRecoveries: r.send_recoveries } : {}),
    ...(r.send_reminders !== undefined ? { sendReminders: r.send_reminders } : {}),
    ...(r.escalate_after_minutes !== undefined ? { escalateAfterMinutes: r.escalate_after_minutes } : {}),
});

export async function listLinks(db: Db, scope: Scope, configurationId: number, where?: SQL): Promise<ChannelLink[]> {
    await findConfiguration(db, scope, configurationId);
    const rows = await db
        .select(linkColumns)
        .from(configurationChannels)
        .innerJoin(notificationChannels, eq(notificationChannels.id, configurationChannels.notificationChannelId))
        .where(and(eq(configurationChannels.configurationId, configurationId), where))
        .orderBy(asc(configurationChannels.id));
    return rows.map(({ min_severity, send_recoveries, send_reminders, escalate_after_minutes, ...link }) => ({
        ...link,
        ...(min_severity !== 'critical' ? { min_severity } : {}),
        ...(!send_recoveries ? { send_recoveries } : {}),
        ...(!send_reminders ? { send_reminders } : {}),
        ...(escalate_after_minutes !== null ? { escalate_after_minutes } : {}),
    }));
}

const ALREADY_LINKED = 'This notification channel is already associated with this configuration';

type LinkWritten = { link: ChannelLink; configuration: ConfigurationRow };

/** Both ends must be visible to the caller and belong to the same company; a pair is linked at most once. */
export async function createLink(
    db: Db,
    scope: Scope,
    configurationId: number,
    channelId: number,
    routing: LinkRouting = {}
): Promise<LinkWritten> {
    const configuration = await findConfiguration(db, scope, configurationId);
    const [channel] = await db
        .select({ id: notificationChannels.id, companyId: notificationChannels.companyId })
        .from(notificationChannels)
        .where(and(eq(notificationChannels.id, channelId), inScope(notificationChannels.companyId, scope)));
    if (!channel) throw notFound('Notification channel');
    if (channel.companyId !== configuration.companyId) {
        throw badRequest({ notification_channel_id: 'The notification channel belongs to another company' });
    }
    const [existing] = await listLinks(
        db,
        scope,
        configurationId,
        eq(configurationChannels.notificationChannelId, channelId)
    );
    if (existing) throw conflict(ALREADY_LINKED);
    const row = await db
        .insert(configurationChannels)
        .values({ configurationId, notificationChannelId: channelId, ...routingColumns(routing) })
        .returning({ id: configurationChannels.id })
        .then(([r]) => r)
        .catch((err: unknown) => {
            // Two requests racing past the check above meet the unique index.
            throw isUniqueViolation(err) ? conflict(ALREADY_LINKED) : err;
        });
    if (!row) throw new Error('insert returned nothing');
    const [link] = await listLinks(db, scope, configurationId, eq(configurationChannels.id, row.id));
    if (!link) throw new Error('link vanished');
    return { link, configuration };
}

/** Changes a link's routing; the channel and configuration it joins stay. */
export async function updateLink(
    db: Db,
    scope: Scope,
    configurationId: number,
    linkId: number,
    routing: LinkRouting
): Promise<LinkWritten> {
    const configuration = await findConfiguration(db, scope, configurationId);
    const [found] = await listLinks(db, scope, configurationId, eq(configurationChannels.id, linkId));
    if (!found) throw notFound('Notification channel link');
    const set = routingColumns(routing);
    if (Object.keys(set).length > 0)
        await db.update(configurationChannels).set(set).where(eq(configurationChannels.id, linkId));
    const [link] = await listLinks(db, scope, configurationId, eq(configurationChannels.id, linkId));
    if (!link) throw notFound('Notification channel link');
    return { link, configuration };
}

export async function deleteLink(db: Db, scope: Scope, configurationId: number, linkId: number): Promise<LinkWritten> {
    const configuration = await findConfiguration(db, scope, configurationId);
    const [link] = await listLinks(db, scope, configurationId, eq(configurationChannels.id, linkId));
    if (!link) throw notFound('Notification channel link');
    await db.delete(configurationChannels).where(eq(configurationChannels.id, linkId));
    return { link, configuration };
}
