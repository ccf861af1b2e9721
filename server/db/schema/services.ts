import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { SERVICE_TYPES } from '../../../common/service-types';
import { servers } from './servers';

export const services = pgTable(
    'services',
    {
        id: serial('id').primaryKey(),
        serverId: integer('server_id')
            .notNull()
            .references(() => servers.id, { onDelete: 'cascade' }),
        name: text('name').notNull(),
        type: text('type', { enum: SERVICE_TYPES }).notNull(),
        /** Shown to every reader: a password in the URL is masked (security item 5). */
        address: text('address').notNull(),
        /** The whole URL encrypted (enc:v1:…) when it holds a password; the egress paths read this one. */
        addressSecret: text('address_secret'),
        isEnabled: boolean('is_enabled').notNull().default(true),
        createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
        updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [index('services_server_idx').on(t.serverId)]
);
export type ServiceRow = typeof services.$inferSelect;
