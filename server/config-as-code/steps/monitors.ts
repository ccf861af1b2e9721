import { eq } from 'drizzle-orm';
import { monitors } from '../../db/schema';
import { matchRow, storedSettings } from '../current';
import type { MonitorDoc } from '../document';
import { changed, type KeptAddress, outcome, type Ref, type Walk } from './walk';

/** Monitors planned between two turns of the event loop. */
const YIELD_EVERY = 250;

type StoredMonitor = Walk['tree']['monitors'][number];

/** Where a list of monitors hangs: its configuration, and its server unless they are the configuration's own. */
export interface MonitorParent {
    configuration: Ref;
    server: Ref | null;
    /** The stored monitors this list replaces. */
    stored: StoredMonitor[];
    path: string;
}

/** Makes the stored monitors of one parent equal to `wanted`: creates, updates, deletes what the list leaves out. */
export async function reconcileMonitors(walk: Walk, wanted: MonitorDoc[], parent: MonitorParent): Promise<void> {
    const kept = new Set<number>();
    for (const [mi, m] of wanted.entries()) {
        // A plan of thousands of monitors lets other requests in between chunks.
        if (mi % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((r) => setImmediate(r));
        const at = `${parent.path}.monitors[${mi}]`;
        const old = matchRow('monitor', parent.stored, m, kept);
        const target = typeof m.settings.address === 'string' ? m.settings.address : null;
        const address =
            target === null
                ? null
                : walk.keep(
                      target,
                      old
                          ? {
                                address: String(storedSettings(old.configurationObject).address ?? ''),
                                secret: old.addressSecret,
                            }
                          : null,
                      `${at}.settings.address`
                  );
        const settings = address ? { ...m.settings, address: address.address } : m.settings;
        if (!old) await createMonitor(walk, m, at, parent, { settings, address });
        else {
            kept.add(old.id);
            await updateMonitor(walk, m, old, at, parent, { settings, address });
        }
    }
    for (const old of parent.stored.filter((x) => !kept.has(x.id))) {
        walk.note({ action: 'delete', kind: 'monitor', path: parent.path, name: old.name }, 'MONITOR_DELETED');
        if (walk.tx) {
            await walk.tx.delete(monitors).where(eq(monitors.id, old.id));
            await walk.audit(`Monitor "${old.name}" deleted`, {
                configuration: parent.configuration,
                server: parent.server,
            });
        }
    }
}

/** A monitor's settings as they are to be stored, its address sealed. */
interface Stored {
    settings: Record<string, unknown>;
    address: KeptAddress | null;
}

async function createMonitor(walk: Walk, m: MonitorDoc, at: string, parent: MonitorParent, to: Stored) {
    walk.note({ action: 'create', kind: 'monitor', path: at, name: m.name }, 'MONITOR_CREATED');
    if (!walk.tx) return;
    const [row] = await walk.tx
        .insert(monitors)
        .values({
            configurationId: parent.configuration.id,
            serverId: parent.server?.id ?? null,
            name: m.name,
            type: m.type,
            isEnabled: m.is_enabled,
            configurationObject: JSON.stringify(to.settings),
            addressSecret: to.address?.secret ?? null,
            locations: m.locations ?? null,
            confirm: m.confirm ?? 1,
        })
        .returning({ id: monitors.id });
    await walk.audit(`Monitor "${m.name}" created`, {
        configuration: parent.configuration,
        server: parent.server,
        monitor: { id: row?.id ?? -1, name: m.name },
    });
}

async function updateMonitor(
    walk: Walk,
    m: MonitorDoc,
    old: StoredMonitor,
    at: string,
    parent: MonitorParent,
    to: Stored
) {
    const fields = changed(
        {
            name: old.name,
            type: old.type,
            is_enabled: old.isEnabled,
            settings: storedSettings(old.configurationObject),
            locations: old.locations,
            confirm: old.confirm,
        },
        {
            name: m.name,
            type: m.type,
            is_enabled: m.is_enabled,
            settings: to.settings,
            locations: m.locations ?? null,
            confirm: m.confirm ?? 1,
        }
    );
    if (to.address && !to.address.same && !fields.includes('settings')) fields.push('settings');
    walk.note({ ...outcome(fields, old.name), kind: 'monitor', path: at, name: m.name }, 'MONITOR_UPDATED');
    if (!walk.tx || !fields.length) return;
    await walk.tx
        .update(monitors)
        .set({
            name: m.name,
            type: m.type,
            isEnabled: m.is_enabled,
            configurationObject: JSON.stringify(to.settings),
            addressSecret: to.address?.secret ?? null,
            locations: m.locations ?? null,
            confirm: m.confirm ?? 1,
            updatedAt: new Date(),
        })
        .where(eq(monitors.id, old.id));
    await walk.audit(`Monitor "${m.name}" updated`, {
        configuration: parent.configuration,
        server: parent.server,
        monitor: { id: old.id, name: m.name },
    });
}
