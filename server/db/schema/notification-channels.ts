import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { CHANNEL_TYPES } from '../../../common/channel-types';
import { companies } from './companies';

/** `configuration_object` is stored with its secrets (the Telegram bot_token) encrypted; see server/auth/secrets.ts. */
export const notificationChannels = pgTable(
    'notification_channels',
    {
        id: serial('id').primaryKey(),
        companyId: integer('company_id')
            .notNull()
            .references(() => companies.id, { onDelete: 'restrict' }),
        name: text('name').notNull(),
        type: text('type', { enum: CHANNEL_TYPES }).notNull(),
        isEnabled: boolean('is_enabled').notNull().default(true),
        configurationObject: text('configuration_object').notNull(),
        createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
        updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [index('notification_channels_company_idx').on(t.companyId)]
);
export type NotificationChannelRow = typeof notificationChannels.$inferSelect;
