import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { configurationChannels, configurations, monitors, notificationChannels, servers, services } from '../db/schema';
import { DOCUMENT_VERSION, type ConfigDocument } from './document';

/** A company's configuration tree as stored, in id order (so exports are stable). */
export async function loadCompanyTree(db: Db, companyId: number) {
    const cfgs = await db
        .select()
        .from(configurations)
        .where(eq(configurations.companyId, companyId))
        .orderBy(asc(configurations.id));
    const cfgIds = cfgs.map((c) => c.id);
    const none = cfgIds.length === 0;
    const srvs = none
        ? []
        : await db.select().from(servers).where(inArray(servers.configurationId, cfgIds)).orderBy(asc(servers.id));
    const srvIds = srvs.map((s) => s.id);
    const svcs =
        srvIds.length === 0
            ? []
            : await db.select().from(services).where(inArray(services.serverId, srvIds)).orderBy(asc(services.id));
    const mons = none
        ? []
        : await db.select().from(monitors).where(inArray(monitors.configurationId, cfgIds)).orderBy(asc(monitors.id));
    const links = none
        ? []
        : await db
              .select({
                  id: configurationChannels.id,
                  configurationId: configurationChannels.configurationId,
                  name: notificationChannels.name,
              })
              .from(configurationChannels)
              .innerJoin(notificationChannels, eq(notificationChannels.id, configurationChannels.notificationChannelId))
              .where(inArray(configurationChannels.configurationId, cfgIds))
              .orderBy(asc(configurationChannels.id));
    const channels = await db
        .select({ id: notificationChannels.id, name: notificationChannels.name })
        .from(notificationChannels)
        .where(eq(notificationChannels.companyId, companyId))
        .orderBy(asc(notificationChannels.id));
    return { configurations: cfgs, servers: srvs, services: svcs, monitors: mons, links, channels };
}
export type CompanyTree = Awaited<ReturnType<typeof loadCompanyTree>>;

/** Stored settings as the document shows them: the normalised object the API validated. */
export function storedSettings(json: string): Record<string, unknown> {
    try {
        const v = JSON.parse(json) as unknown;
        return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
    } catch {
        return {};
    }
}

const KEY_PREFIX = { configuration: 'c', server: 's', service: 'v', monitor: 'm' } as const;

/** A row's key in the document: its kind and id, which a rename does not change. */
export const rowKey = (kind: keyof typeof KEY_PREFIX, id: number) => `${KEY_PREFIX[kind]}${id}`;

/** The stored row a document entry stands for: by its key when it has one that fits, else by name. */
export function matchRow<T extends { id: number; name: string }>(
    kind: keyof typeof KEY_PREFIX,
    stored: T[],
    entry: { key?: string; name: string },
    kept: Set<number>
): T | undefined {
    const free = stored.filter((x) => !kept.has(x.id));
    const byKey = entry.key === undefined ? undefined : free.find((x) => rowKey(kind, x.id) === entry.key);
    return byKey ?? free.find((x) => x.name === entry.name);
}

export function exportDocument(tree: CompanyTree, companyName: string): ConfigDocument {
    const monitorDoc = (m: CompanyTree['monitors'][number]) => ({
        key: rowKey('monitor', m.id),
        name: m.name,
        type: m.type,
        is_enabled: m.isEnabled,
        settings: storedSettings(m.configurationObject),
        // Written only when set, so a document of a one-location console reads as before.
        ...(m.locations ? { locations: m.locations } : {}),
        ...(m.confirm !== 1 ? { confirm: m.confirm } : {}),
    });
    return {
        version: DOCUMENT_VERSION,
        company: companyName,
        configurations: tree.configurations.map((c) => ({
            key: rowKey('configuration', c.id),
            name: c.name,
            chain: c.chain,
            is_enabled: c.isEnabled,
            chain_endpoints: c.chainEndpoints,
            channels: tree.links.filter((l) => l.configurationId === c.id).map((l) => l.name),
            servers: tree.servers
                .filter((s) => s.configurationId === c.id)
                .map((s) => ({
                    key: rowKey('server', s.id),
                    name: s.name,
                    address: s.address,
                    is_enabled: s.isEnabled,
                    services: tree.services
                        .filter((v) => v.serverId === s.id)
                        .map((v) => ({
                            key: rowKey('service', v.id),
                            name: v.name,
                            type: v.type,
                            address: v.address,
                            is_enabled: v.isEnabled,
                        })),
                    monitors: tree.monitors.filter((m) => m.serverId === s.id).map(monitorDoc),
                })),
            monitors: tree.monitors.filter((m) => m.configurationId === c.id && m.serverId === null).map(monitorDoc),
        })),
    };
}
