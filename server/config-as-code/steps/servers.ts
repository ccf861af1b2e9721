import { eq } from 'drizzle-orm';
import { servers } from '../../db/schema';
import { matchRow } from '../current';
import type { ServerDoc } from '../document';
import { reconcileMonitors } from './monitors';
import { reconcileServices } from './services';
import { changed, type KeptAddress, outcome, type Ref, type Walk } from './walk';

type StoredServer = Walk['tree']['servers'][number];

/**
 * Makes a configuration's stored servers equal to `wanted`, each with its services and monitors, and deletes the
 * servers the list leaves out (their services and monitors go with them).
 */
export async function reconcileServers(
    walk: Walk,
    wanted: ServerDoc[],
    stored: StoredServer[],
    parent: { configuration: Ref; path: string }
): Promise<void> {
    const configuration = parent.configuration;
    const kept = new Set<number>();
    for (const [si, s] of wanted.entries()) {
        const at = `${parent.path}.servers[${si}]`;
        const before = matchRow('server', stored, s, kept);
        const address = walk.keep(
            s.address,
            before ? { address: before.address, secret: before.addressSecret } : null,
            `${at}.address`
        );
        if (before) kept.add(before.id);
        const server = before
            ? await updateServer(walk, s, before, address, at, configuration)
            : await createServer(walk, s, address, at, configuration);
        const storedServices = before ? walk.tree.services.filter((v) => v.serverId === before.id) : [];
        await reconcileServices(walk, s.services, storedServices, { configuration, server, path: at });
        const storedMonitors = before
            ? walk.tree.monitors.filter((m) => m.configurationId === configuration.id && m.serverId === before.id)
            : [];
        await reconcileMonitors(walk, s.monitors, { configuration, server, stored: storedMonitors, path: at });
    }
    for (const old of stored.filter((x) => !kept.has(x.id))) {
        walk.note({ action: 'delete', kind: 'server', path: parent.path, name: old.name }, 'SERVER_DELETED');
        if (walk.tx) {
            await walk.tx.delete(servers).where(eq(servers.id, old.id));
            await walk.audit(`Server "${old.name}" deleted`, { configuration });
        }
    }
}

async function createServer(walk: Walk, s: ServerDoc, address: KeptAddress, at: string, configuration: Ref) {
    walk.note({ action: 'create', kind: 'server', path: at, name: s.name }, 'SERVER_CREATED');
    if (!walk.tx) return { id: -1, name: s.name };
    const [row] = await walk.tx
        .insert(servers)
        .values({
            configurationId: configuration.id,
            name: s.name,
            address: address.address,
            addressSecret: address.secret,
            isEnabled: s.is_enabled,
        })
        .returning({ id: servers.id });
    const server = { id: row?.id ?? -1, name: s.name };
    await walk.audit(`Server "${s.name}" created`, { configuration, server });
    return server;
}

async function updateServer(
    walk: Walk,
    s: ServerDoc,
    before: StoredServer,
    address: KeptAddress,
    at: string,
    configuration: Ref
): Promise<Ref> {
    const server = { id: before.id, name: before.name };
    const fields = [
        ...changed({ name: before.name }, { name: s.name }),
        ...(address.same ? [] : ['address']),
        ...changed({ is_enabled: before.isEnabled }, { is_enabled: s.is_enabled }),
    ];
    walk.note({ ...outcome(fields, before.name), kind: 'server', path: at, name: s.name }, 'SERVER_UPDATED');
    if (walk.tx && fields.length) {
        await walk.tx
            .update(servers)
            .set({
                name: s.name,
                address: address.address,
                addressSecret: address.secret,
                isEnabled: s.is_enabled,
                updatedAt: new Date(),
            })
            .where(eq(servers.id, before.id));
        await walk.audit(`Server "${s.name}" updated`, { configuration, server });
    }
    return server;
}
