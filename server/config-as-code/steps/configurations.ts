import { eq } from 'drizzle-orm';
import { configurations } from '../../db/schema';
import { matchRow } from '../current';
import type { ConfigurationDoc } from '../document';
import { reconcileChannelLinks } from './channel-links';
import { reconcileMonitors } from './monitors';
import { reconcileServers } from './servers';
import { changed, outcome, type Ref, type Walk } from './walk';

type StoredConfiguration = Walk['tree']['configurations'][number];

/**
 * Makes the stored configurations equal to `wanted`, each with its channel links, servers and monitors, and
 * deletes the configurations the document leaves out (with everything under them).
 */
export async function reconcileConfigurations(walk: Walk, wanted: ConfigurationDoc[]): Promise<void> {
    const kept = new Set<number>();
    for (const [ci, c] of wanted.entries()) {
        const at = `configurations[${ci}]`;
        const existing = matchRow('configuration', walk.tree.configurations, c, kept);
        if (existing) kept.add(existing.id);
        const configuration = existing
            ? await updateConfiguration(walk, c, existing, at)
            : await createConfiguration(walk, c, at);
        const linked = existing ? walk.tree.links.filter((l) => l.configurationId === existing.id) : [];
        await reconcileChannelLinks(walk, c, linked, configuration, at);
        const storedServers = existing ? walk.tree.servers.filter((s) => s.configurationId === existing.id) : [];
        await reconcileServers(walk, c.servers, storedServers, { configuration, path: at });
        const storedMonitors = existing
            ? walk.tree.monitors.filter((m) => m.configurationId === existing.id && m.serverId === null)
            : [];
        await reconcileMonitors(walk, c.monitors, { configuration, server: null, stored: storedMonitors, path: at });
    }
    for (const old of walk.tree.configurations.filter((x) => !kept.has(x.id))) {
        walk.note(
            { action: 'delete', kind: 'configuration', path: 'configurations', name: old.name },
            'CONFIGURATION_DELETED'
        );
        if (walk.tx) {
            await walk.tx.delete(configurations).where(eq(configurations.id, old.id));
            await walk.audit(`Configuration "${old.name}" deleted`, {});
        }
    }
}

async function createConfiguration(walk: Walk, c: ConfigurationDoc, at: string): Promise<Ref> {
    walk.note({ action: 'create', kind: 'configuration', path: at, name: c.name }, 'CONFIGURATION_CREATED');
    if (!walk.tx) return { id: -1, name: c.name };
    const [row] = await walk.tx
        .insert(configurations)
        .values({
            companyId: walk.companyId,
            name: c.name,
            chain: c.chain,
            isEnabled: c.is_enabled,
            chainEndpoints: c.chain_endpoints,
        })
        .returning({ id: configurations.id });
    const configuration = { id: row?.id ?? -1, name: c.name };
    await walk.audit(`Configuration "${c.name}" created`, { configuration });
    return configuration;
}

async function updateConfiguration(
    walk: Walk,
    c: ConfigurationDoc,
    existing: StoredConfiguration,
    at: string
): Promise<Ref> {
    const configuration = { id: existing.id, name: existing.name };
    const fields = changed(
        {
            name: existing.name,
            chain: existing.chain,
            is_enabled: existing.isEnabled,
            chain_endpoints: existing.chainEndpoints,
        },
        { name: c.name, chain: c.chain, is_enabled: c.is_enabled, chain_endpoints: c.chain_endpoints }
    );
    walk.note(
        { ...outcome(fields, existing.name), kind: 'configuration', path: at, name: c.name },
        'CONFIGURATION_UPDATED'
    );
    if (walk.tx && fields.length) {
        await walk.tx
            .update(configurations)
            .set({
                name: c.name,
                chain: c.chain,
                isEnabled: c.is_enabled,
                chainEndpoints: c.chain_endpoints,
                updatedAt: new Date(),
            })
            .where(eq(configurations.id, existing.id));
        await walk.audit(`Configuration "${c.name}" updated`, { configuration });
    }
    return configuration;
}
