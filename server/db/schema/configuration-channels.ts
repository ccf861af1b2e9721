import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { configurations } from './configurations';
import { notificationChannels } from './notification-channels';

export const configurationChannels = pgTable(
    'configuration_channels',
    {
        id: serial('id').primaryKey(),
        configurationId: integer('configuration_id')
            .notNull()
            .references(() => configurations.id, { onDelete: 'cascade' }),
        notificationChannelId: integer('notification_channel_id')
            .notNull()
            .references(() => notificationChannels.id, { onDelete: 'cascade' }),
        /** Routing of this link: 'critical' (Error only) or 'warning' (warnings too); recoveries and reminders or not. */
        minSeverity: text('min_severity', { enum: ['critical', 'warning'] })
            .notNull()
            .default('critical'),
        sendRecoveries: boolean('send_recoveries').notNull().default(true),
        sendReminders: boolean('send_reminders').notNull().default(true),
        /**
         * Escalation: this channel gets an incident only once it stayed open and unacknowledged this long (its
         * reminders and recovery only if it got the alert); null sends at once.
         */
        escalateAfterMinutes: integer('escalate_after_minutes'),
        createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [
        uniqueIndex('configuration_channels_pair_idx').on(t.configurationId, t.notificationChannelId),
        index('configuration_channels_channel_idx').on(t.notificationChannelId),
    ]
);
