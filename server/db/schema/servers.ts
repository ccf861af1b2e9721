import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { configurations } from './configurations';

export const servers = pgTable(
    'servers',
    {
        id: serial('id').primaryKey(),
        configurationId: integer('configuration_id')
            .notNull()
            .references(() => configurations.id, { onDelete: 'cascade' }),
        name: text('name').notNull(),
        /** The address with its password masked (`http://user:••••@host`); every read returns this. */
        address: text('address').notNull(),
        /** The whole address, encrypted, when it holds a password (auth/url-credentials.ts); null otherwise. */
        addressSecret: text('address_secret'),
        isEnabled: boolean('is_enabled').notNull().default(true),
        createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
        updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [index('servers_configuration_idx').on(t.configurationId)]
);
export type ServerRow = typeof servers.$inferSelect;
