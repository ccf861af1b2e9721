import { eq } from 'drizzle-orm';
import { configurationChannels } from '../../db/schema';
import type { ConfigurationDoc } from '../document';
import type { Ref, Walk } from './walk';

type StoredLink = Walk['tree']['links'][number];

/** Links a configuration to the channels the document names (by name) and unlinks the others. */
export async function reconcileChannelLinks(
    walk: Walk,
    c: ConfigurationDoc,
    linked: StoredLink[],
    configuration: Ref,
    at: string
): Promise<void> {
    for (const [li, name] of c.channels.entries()) {
        const path = `${at}.channels[${li}]`;
        if (linked.some((l) => l.name === name)) {
            walk.note({ action: 'unchanged', kind: 'channel_link', path, name });
            continue;
        }
        walk.note({ action: 'create', kind: 'channel_link', path, name }, 'NOTIFICATION_CHANNEL_ASSOCIATED');
        if (walk.tx) {
            await walk.tx
                .insert(configurationChannels)
                .values({ configurationId: configuration.id, notificationChannelId: walk.channelIds.get(name) ?? -1 });
            await walk.audit(`Notification channel "${name}" linked to configuration "${c.name}"`, { configuration });
        }
    }
    for (const l of linked.filter((l) => !c.channels.includes(l.name))) {
        walk.note(
            { action: 'delete', kind: 'channel_link', path: at, name: l.name },
            'NOTIFICATION_CHANNEL_DISASSOCIATED'
        );
        if (walk.tx) {
            await walk.tx.delete(configurationChannels).where(eq(configurationChannels.id, l.id));
            await walk.audit(`Notification channel "${l.name}" unlinked from configuration "${c.name}"`, {
                configuration,
            });
        }
    }
}
