import type { notificationChannels } from '../db/schema';
import { channelConfig } from '../repositories/notification-channels';
import { type ChannelConfig, type ChannelDefinition, validateChannelSettings } from './channels';
import type { Refusal } from './outcomes';

type Channel = typeof notificationChannels.$inferSelect;

/**
 * A stored channel's settings as a sender takes them, or why nothing can be sent with them: invalid ones are
 * refused for good, an unreadable secret may come back with the right key.
 */
export function sendableSettings(
    def: ChannelDefinition,
    channel: Channel,
    secretsAtRest: Uint8Array
): { config: ChannelConfig; refusal: null } | { config: null; refusal: Refusal } {
    try {
        const checked = validateChannelSettings(def.type, channelConfig(secretsAtRest, channel, true));
        if (checked.ok) return { config: checked.config, refusal: null };
        const why = Object.entries(checked.errors)
            .map(([k, v]) => `${k}: ${v}`)
            .join('; ');
        return { config: null, refusal: { outcome: 'permanent', error: `the channel settings are invalid (${why})` } };
    } catch (err) {
        return { config: null, refusal: { outcome: 'transient', error: (err as Error).message } };
    }
}
