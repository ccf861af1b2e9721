import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from './companies';
import { configurations } from './configurations';
import { servers } from './servers';
import { users } from './users';

/**
 * A planned window during which a configuration's or a server's alerts are held back, as a silence holds them.
 * With `repeat_weekly` it recurs every week at the same UTC weekday and time span, from `starts_at` on.
 */
export const maintenanceWindows = pgTable(
    'maintenance_windows',
    {
        id: serial('id').primaryKey(),
        companyId: integer('company_id')
            .notNull()
            .references(() => companies.id, { onDelete: 'cascade' }),
        configurationId: integer('configuration_id').references(() => configurations.id, { onDelete: 'cascade' }),
        serverId: integer('server_id').references(() => servers.id, { onDelete: 'cascade' }),
        startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
        endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
        repeatWeekly: boolean('repeat_weekly').notNull().default(false),
        /**
         * What it mutes: `node`, the node-health monitors only (a validator jailed while its node restarts must still
         * page), or `all`.
         */
        mutes: text('mutes', { enum: ['node', 'all'] })
            .notNull()
            .default('node'),
        reason: text('reason').notNull(),
        createdBy: text('created_by').notNull(),
        createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
        createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
        updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [index('maintenance_windows_company_idx').on(t.companyId)]
);
export type MaintenanceWindowRow = typeof maintenanceWindows.$inferSelect;
