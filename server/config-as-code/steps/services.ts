import { eq } from 'drizzle-orm';
import { services } from '../../db/schema';
import { matchRow } from '../current';
import type { ServiceDoc } from '../document';
import { changed, outcome, type Ref, type Walk } from './walk';

type StoredService = Walk['tree']['services'][number];

/** Makes a server's stored services equal to `wanted`: creates, updates, deletes what the list leaves out. */
export async function reconcileServices(
    walk: Walk,
    wanted: ServiceDoc[],
    stored: StoredService[],
    parent: { configuration: Ref; server: Ref; path: string }
): Promise<void> {
    const refs = { configuration: parent.configuration, server: parent.server };
    const kept = new Set<number>();
    for (const [vi, v] of wanted.entries()) {
        const at = `${parent.path}.services[${vi}]`;
        const old = matchRow('service', stored, v, kept);
        const address = walk.keep(
            v.address,
            old ? { address: old.address, secret: old.addressSecret } : null,
            `${at}.address`
        );
        if (!old) {
            walk.note({ action: 'create', kind: 'service', path: at, name: v.name }, 'SERVICE_CREATED');
            if (walk.tx) {
                await walk.tx.insert(services).values({
                    serverId: parent.server.id,
                    name: v.name,
                    type: v.type,
                    address: address.address,
                    addressSecret: address.secret,
                    isEnabled: v.is_enabled,
                });
                await walk.audit(`Service "${v.name}" created`, refs);
            }
            continue;
        }
        kept.add(old.id);
        const fields = [
            ...changed(
                { name: old.name, type: old.type, is_enabled: old.isEnabled },
                { name: v.name, type: v.type, is_enabled: v.is_enabled }
            ),
            ...(address.same ? [] : ['address']),
        ];
        walk.note({ ...outcome(fields, old.name), kind: 'service', path: at, name: v.name }, 'SERVICE_UPDATED');
        if (walk.tx && fields.length) {
            await walk.tx
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
            await walk.audit(`Service "${v.name}" updated`, refs);
        }
    }
    for (const old of stored.filter((x) => !kept.has(x.id))) {
        walk.note({ action: 'delete', kind: 'service', path: parent.path, name: old.name }, 'SERVICE_DELETED');
        if (walk.tx) {
            await walk.tx.delete(services).where(eq(services.id, old.id));
            await walk.audit(`Service "${old.name}" deleted`, refs);
        }
    }
}
