import { eq } from 'drizzle-orm';
import { type AuditInput, writeAudit } from '../audit';
import { openAddress, sealAddress } from '../auth/url-credentials';
import type { Db } from '../db/client';
import { configurationChannels, configurations, monitors, servers, services } from '../db/schema';
import type { EventName } from '../events';
import { badRequest } from '../errors';
import { type CompanyTree, matchRow, storedSettings } from './current';
import type { ConfigDocument, MonitorDoc } from './document';

export type Action = 'create' | 'update' | 'rename' | 'unchanged' | 'delete';
export type Kind = 'configuration' | 'server' | 'service' | 'monitor' | 'channel_link';

export interface PlanItem {
    action: Action;
    kind: Kind;
    /** Where the row is in the document (for deletes: what it was called). */
    path: string;
    name: string;
    /** The fields an update changes. */
    fields?: string[];
    /** A rename (matched by its key): what it was called. */
    was?: string;
}

export interface Plan {
    summary: Record<Action, number>;
    items: PlanItem[];
}

/** How addresses are kept, as the API keeps them: judged against the company's networks, passwords sealed. */
export interface AddressRules {
    key: Uint8Array;
    /** Why the company may not save this address (outside its allowed networks), or null. */
    refused(address: string): Promise<string | null>;
}

interface Who {
    companyId: number;
    actorUserId: number | null;
    username: string;
    ip: string | null;
}

/** Every address the document would make the console reach, with its path. */
function* addressesOf(doc: ConfigDocument): Generator<{ address: string; at: string }> {
    for (const [ci, c] of doc.configurations.entries()) {
        const at = `configurations[${ci}]`;
        for (const [ei, e] of c.chain_endpoints.entries())
            yield { address: e.address, at: `${at}.chain_endpoints[${ei}].address` };
        const monitorAddresses = function* (list: MonitorDoc[], parent: string) {
            for (const [mi, m] of list.entries())
                if (typeof m.settings.address === 'string')
                    yield { address: m.settings.address, at: `${parent}.monitors[${mi}].settings.address` };
        };
        yield* monitorAddresses(c.monitors, at);
        for (const [si, s] of c.servers.entries()) {
            const sat = `${at}.servers[${si}]`;
            for (const [vi, v] of s.services.entries())
                yield { address: v.address, at: `${sat}.services[${vi}].address` };
            yield* monitorAddresses(s.monitors, sat);
        }
    }
}

/** Canonical JSON (sorted keys), so settings compare by value whatever their key order. */
function canonical(v: unknown): string {
    if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
    if (v && typeof v === 'object')
        return `{${Object.keys(v)
            .sort()
            .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
            .join(',')}}`;
    return JSON.stringify(v);
}

/** A matched row's plan entry: a rename when its name changed (it was matched by its key), else update or unchanged. */
const outcome = (fields: string[], was: string): Pick<PlanItem, 'action' | 'fields' | 'was'> =>
    fields.includes('name')
        ? { action: 'rename', fields, was }
        : fields.length
          ? { action: 'update', fields }
          : { action: 'unchanged' };

const changed = <T extends object>(before: T, after: T): string[] =>
    (Object.keys(after) as (keyof T)[]).filter((k) => canonical(before[k]) !== canonical(after[k])).map(String);

/**
 * Compares a document with the company's stored tree by names and, when `tx` is given, makes the stored tree
 * equal to the document as it goes: creates, updates and deletes with one audit entry each. The same walk makes
 * the plan and the change, so a dry run names exactly what a real run does. Rows the document leaves out are
 * deleted (a configuration takes its servers, services, monitors and links with it).
 */
/** Monitors planned between two turns of the event loop. */
const YIELD_EVERY = 250;

export async function reconcile(
    tree: CompanyTree,
    doc: ConfigDocument,
    tx: Db | null,
    who: Who,
    rules: AddressRules
): Promise<{ plan: Plan; events: EventName[] }> {
    const items: PlanItem[] = [];
    const events: EventName[] = [];
    const channelIds = new Map(tree.channels.map((c) => [c.name, c.id]));
    const missing: Record<string, string> = {};
    for (const [ci, c] of doc.configurations.entries()) {
        for (const [li, name] of c.channels.entries()) {
            if (!channelIds.has(name))
                missing[`configurations[${ci}].channels[${li}]`] = `No notification channel is called "${name}"`;
        }
    }
    for (const { address, at } of addressesOf(doc)) {
        const why = await rules.refused(address);
        if (why) missing[at] = why;
    }
    if (Object.keys(missing).length) throw badRequest(missing, 'The document has errors; nothing was changed');

    /**
     * An address as the API stores it (password masked, the whole URL sealed beside it) and whether it is the stored
     * one: a masked password stands for the stored password, and is refused where none is stored for that origin.
     */
    const keep = (submitted: string, stored: { address: string; secret: string | null } | null, at: string) => {
        const sealed = sealAddress(rules.key, submitted, stored?.secret ?? null, at);
        const full = (a: { address: string; secret: string | null }) => openAddress(rules.key, a.address, a.secret);
        return { ...sealed, same: stored !== null && full(stored) === full(sealed) };
    };

    const audit = async (message: string, refs: Partial<AuditInput>) => {
        if (!tx) return;
        await writeAudit(tx, {
            companyId: who.companyId,
            actorUserId: who.actorUserId,
            ip: who.ip,
            ...refs,
            message: `${message} by ${who.username} (import)`,
        });
    };
    const note = (item: PlanItem, event?: EventName) => {
        items.push(item);
        if (event && item.action !== 'unchanged') events.push(event);
    };

    const keptConfigs = new Set<number>();
    for (const [ci, c] of doc.configurations.entries()) {
        const at = `configurations[${ci}]`;
        const existing = matchRow('configuration', tree.configurations, c, keptConfigs);
        const wanted = { chain: c.chain, is_enabled: c.is_enabled, chain_endpoints: c.chain_endpoints };
        let cfg: { id: number; name: string } = { id: -1, name: c.name };
        if (!existing) {
            note({ action: 'create', kind: 'configuration', path: at, name: c.name }, 'CONFIGURATION_CREATED');
            if (tx) {
                const [row] = await tx
                    .insert(configurations)
                    .values({
                        companyId: who.companyId,
                        name: c.name,
                        chain: c.chain,
                        isEnabled: c.is_enabled,
                        chainEndpoints: c.chain_endpoints,
                    })
                    .returning({ id: configurations.id });
                cfg = { id: row?.id ?? -1, name: c.name };
                await audit(`Configuration "${c.name}" created`, { configuration: cfg });
            }
        } else {
            keptConfigs.add(existing.id);
            cfg = { id: existing.id, name: existing.name };
            const fields = changed(
                {
                    name: existing.name,
                    chain: existing.chain,
                    is_enabled: existing.isEnabled,
                    chain_endpoints: existing.chainEndpoints,
                },
                { name: c.name, ...wanted }
            );
            note(
                { ...outcome(fields, existing.name), kind: 'configuration', path: at, name: c.name },
                'CONFIGURATION_UPDATED'
            );
            if (tx && fields.length) {
                await tx
                    .update(configurations)
                    .set({
                        name: c.name,
                        chain: c.chain,
                        isEnabled: c.is_enabled,
                        chainEndpoints: c.chain_endpoints,
                        updatedAt: new Date(),
                    })
                    .where(eq(configurations.id, existing.id));
                await audit(`Configuration "${c.name}" updated`, { configuration: cfg });
            }
        }

        // Channel links, by channel name.
        const linked = existing ? tree.links.filter((l) => l.configurationId === existing.id) : [];
        for (const [li, name] of c.channels.entries()) {
            if (linked.some((l) => l.name === name)) {
                note({ action: 'unchanged', kind: 'channel_link', path: `${at}.channels[${li}]`, name });
                continue;
            }
            note(
                { action: 'create', kind: 'channel_link', path: `${at}.channels[${li}]`, name },
                'NOTIFICATION_CHANNEL_ASSOCIATED'
            );
            if (tx) {
                await tx
                    .insert(configurationChannels)
                    .values({ configurationId: cfg.id, notificationChannelId: channelIds.get(name) ?? -1 });
                await audit(`Notification channel "${name}" linked to configuration "${c.name}"`, {
                    configuration: cfg,
                });
            }
        }
        for (const l of linked.filter((l) => !c.channels.includes(l.name))) {
            note(
                { action: 'delete', kind: 'channel_link', path: at, name: l.name },
                'NOTIFICATION_CHANNEL_DISASSOCIATED'
            );
            if (tx) {
                await tx.delete(configurationChannels).where(eq(configurationChannels.id, l.id));
                await audit(`Notification channel "${l.name}" unlinked from configuration "${c.name}"`, {
                    configuration: cfg,
                });
            }
        }

        // Servers, with their services and monitors.
        const storedServers = existing ? tree.servers.filter((s) => s.configurationId === existing.id) : [];
        const keptServers = new Set<number>();
        for (const [si, s] of c.servers.entries()) {
            const sat = `${at}.servers[${si}]`;
            const before = matchRow('server', storedServers, s, keptServers);
            let srv: { id: number; name: string } = { id: -1, name: s.name };
            const serverAddress = keep(
                s.address,
                before ? { address: before.address, secret: before.addressSecret } : null,
                `${sat}.address`
            );
            if (!before) {
                note({ action: 'create', kind: 'server', path: sat, name: s.name }, 'SERVER_CREATED');
                if (tx) {
                    const [row] = await tx
                        .insert(servers)
                        .values({
                            configurationId: cfg.id,
                            name: s.name,
                            address: serverAddress.address,
                            addressSecret: serverAddress.secret,
                            isEnabled: s.is_enabled,
                        })
                        .returning({ id: servers.id });
                    srv = { id: row?.id ?? -1, name: s.name };
                    await audit(`Server "${s.name}" created`, { configuration: cfg, server: srv });
                }
            } else {
                keptServers.add(before.id);
                srv = { id: before.id, name: before.name };
                const fields = [
                    ...changed({ name: before.name }, { name: s.name }),
                    ...(serverAddress.same ? [] : ['address']),
                    ...changed({ is_enabled: before.isEnabled }, { is_enabled: s.is_enabled }),
                ];
                note({ ...outcome(fields, before.name), kind: 'server', path: sat, name: s.name }, 'SERVER_UPDATED');
                if (tx && fields.length) {
                    await tx
                        .update(servers)
                        .set({
                            name: s.name,
                            address: serverAddress.address,
                            addressSecret: serverAddress.secret,
                            isEnabled: s.is_enabled,
                            updatedAt: new Date(),
                        })
                        .where(eq(servers.id, before.id));
                    await audit(`Server "${s.name}" updated`, { configuration: cfg, server: srv });
                }
            }

            const storedServices = before ? tree.services.filter((v) => v.serverId === before.id) : [];
            const keptServices = new Set<number>();
            for (const [vi, v] of s.services.entries()) {
                const vat = `${sat}.services[${vi}]`;
                const old = matchRow('service', storedServices, v, keptServices);
                const address = keep(
                    v.address,
                    old ? { address: old.address, secret: old.addressSecret } : null,
                    `${vat}.address`
                );
                if (!old) {
                    note({ action: 'create', kind: 'service', path: vat, name: v.name }, 'SERVICE_CREATED');
                    if (tx) {
                        await tx.insert(services).values({
                            serverId: srv.id,
                            name: v.name,
                            type: v.type,
                            address: address.address,
                            addressSecret: address.secret,
                            isEnabled: v.is_enabled,
                        });
                        await audit(`Service "${v.name}" created`, { configuration: cfg, server: srv });
                    }
                    continue;
                }
                keptServices.add(old.id);
                const fields = [
                    ...changed(
                        { name: old.name, type: old.type, is_enabled: old.isEnabled },
                        { name: v.name, type: v.type, is_enabled: v.is_enabled }
                    ),
                    ...(address.same ? [] : ['address']),
                ];
                note({ ...outcome(fields, old.name), kind: 'service', path: vat, name: v.name }, 'SERVICE_UPDATED');
                if (tx && fields.length) {
                    await tx
                        .update(services)
                        .set({
                            name: v.name,
                            type: v.type,
                            address: address.address,
                            addressSecret: address.secret,
                            isEnabled: v.is_enabled,
                            updatedAt: new Date(),
                        })
                        .where(eq(services.id, old.id));
                    await audit(`Service "${v.name}" updated`, { configuration: cfg, server: srv });
                }
            }
            for (const old of storedServices.filter((x) => !keptServices.has(x.id))) {
                note({ action: 'delete', kind: 'service', path: sat, name: old.name }, 'SERVICE_DELETED');
                if (tx) {
                    await tx.delete(services).where(eq(services.id, old.id));
                    await audit(`Service "${old.name}" deleted`, { configuration: cfg, server: srv });
                }
            }
            await monitorsOf(s.monitors, before ? before.id : null, srv, sat, !before);
        }
        for (const old of storedServers.filter((x) => !keptServers.has(x.id))) {
            note({ action: 'delete', kind: 'server', path: at, name: old.name }, 'SERVER_DELETED');
            if (tx) {
                await tx.delete(servers).where(eq(servers.id, old.id));
                await audit(`Server "${old.name}" deleted`, { configuration: cfg });
            }
        }
        await monitorsOf(c.monitors, null, null, at, !existing);

        /** Monitors of one server (or of the configuration itself when `server` is null). */
        async function monitorsOf(
            wanted: MonitorDoc[],
            storedServerId: number | null,
            server: { id: number; name: string } | null,
            parentPath: string,
            parentIsNew: boolean
        ) {
            const stored =
                !existing || (server && parentIsNew)
                    ? []
                    : tree.monitors.filter((m) => m.configurationId === existing.id && m.serverId === storedServerId);
            const kept = new Set<number>();
            for (const [mi, m] of wanted.entries()) {
                // A plan of thousands of monitors lets other requests in between chunks.
                if (mi % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((r) => setImmediate(r));
                const mat = `${parentPath}.monitors[${mi}]`;
                const old = matchRow('monitor', stored, m, kept);
                const target = typeof m.settings.address === 'string' ? m.settings.address : null;
                const address =
                    target === null
                        ? null
                        : keep(
                              target,
                              old
                                  ? {
                                        address: String(storedSettings(old.configurationObject).address ?? ''),
                                        secret: old.addressSecret,
                                    }
                                  : null,
                              `${mat}.settings.address`
                          );
                const settings = address ? { ...m.settings, address: address.address } : m.settings;
                const json = JSON.stringify(settings);
                if (!old) {
                    note({ action: 'create', kind: 'monitor', path: mat, name: m.name }, 'MONITOR_CREATED');
                    if (tx) {
                        const [row] = await tx
                            .insert(monitors)
                            .values({
                                configurationId: cfg.id,
                                serverId: server?.id ?? null,
                                name: m.name,
                                type: m.type,
                                isEnabled: m.is_enabled,
                                configurationObject: json,
                                addressSecret: address?.secret ?? null,
                            })
                            .returning({ id: monitors.id });
                        await audit(`Monitor "${m.name}" created`, {
                            configuration: cfg,
                            server,
                            monitor: { id: row?.id ?? -1, name: m.name },
                        });
                    }
                    continue;
                }
                kept.add(old.id);
                const fields = changed(
                    {
                        name: old.name,
                        type: old.type,
                        is_enabled: old.isEnabled,
                        settings: storedSettings(old.configurationObject),
                    },
                    { name: m.name, type: m.type, is_enabled: m.is_enabled, settings }
                );
                if (address && !address.same && !fields.includes('settings')) fields.push('settings');
                note({ ...outcome(fields, old.name), kind: 'monitor', path: mat, name: m.name }, 'MONITOR_UPDATED');
                if (tx && fields.length) {
                    await tx
                        .update(monitors)
                        .set({
                            name: m.name,
                            type: m.type,
                            isEnabled: m.is_enabled,
                            configurationObject: json,
                            addressSecret: address?.secret ?? null,
                            updatedAt: new Date(),
                        })
                        .where(eq(monitors.id, old.id));
                    await audit(`Monitor "${m.name}" updated`, {
                        configuration: cfg,
                        server,
                        monitor: { id: old.id, name: m.name },
                    });
                }
            }
            for (const old of stored.filter((x) => !kept.has(x.id))) {
                note({ action: 'delete', kind: 'monitor', path: parentPath, name: old.name }, 'MONITOR_DELETED');
                if (tx) {
                    await tx.delete(monitors).where(eq(monitors.id, old.id));
                    await audit(`Monitor "${old.name}" deleted`, { configuration: cfg, server });
                }
            }
        }
    }
    for (const old of tree.configurations.filter((x) => !keptConfigs.has(x.id))) {
        note(
            { action: 'delete', kind: 'configuration', path: 'configurations', name: old.name },
            'CONFIGURATION_DELETED'
        );
        if (tx) {
            await tx.delete(configurations).where(eq(configurations.id, old.id));
            await audit(`Configuration "${old.name}" deleted`, {});
        }
    }

    const summary: Record<Action, number> = { create: 0, update: 0, rename: 0, unchanged: 0, delete: 0 };
    for (const item of items) summary[item.action]++;
    return { plan: { summary, items }, events };
}
