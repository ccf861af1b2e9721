import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { ChainEndpoint } from '../../../common/chain-endpoints';
import { companies } from './companies';

export const configurations = pgTable(
    'configurations',
    {
        id: serial('id').primaryKey(),
        companyId: integer('company_id')
            .notNull()
            .references(() => companies.id, { onDelete: 'restrict' }),
        name: text('name').notNull(),
        chain: text('chain').notNull(),
        isEnabled: boolean('is_enabled').notNull().default(true),
        /** Endpoints of the chain beside the servers' services; no passwords (the API refuses them). */
        chainEndpoints: jsonb('chain_endpoints').$type<ChainEndpoint[]>().notNull().default([]),
        createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
        updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [index('configurations_company_idx').on(t.companyId)]
);
export type ConfigurationRow = typeof configurations.$inferSelect;
