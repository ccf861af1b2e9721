import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from './companies';
import { configurations } from './configurations';
import { monitors } from './monitors';
import { servers } from './servers';
import { users } from './users';

/**
 * A silence mutes the alerts of exactly one monitor, server or configuration from `starts_at` until `ends_at`
 * (or until `ended_at`, when someone ended it early). Checks keep running; see server/silences/hush.ts for what is
 * held back and what is sent when it ends.
 */
export const silences = pgTable(
    'silences',
    {
        id: serial('id').primaryKey(),
        companyId: integer('company_id')
            .notNull()
            .references(() => companies.id, { onDelete: 'cascade' }),
        monitorId: integer('monitor_id').references(() => monitors.id, { onDelete: 'cascade' }),
        serverId: integer('server_id').references(() => servers.id, { onDelete: 'cascade' }),
        configurationId: integer('configuration_id').references(() => configurations.id, { onDelete: 'cascade' }),
        startsAt: timestamp('starts_at', { withTimezone: true }).notNull().defaultNow(),
        endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
        reason: text('reason').notNull(),
        /** Who created it: a console user, an API token's user or a Telegram user, as a name kept after deletion. */
        createdBy: text('created_by').notNull(),
        createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
        createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
        /** Set when it was ended before `ends_at` (DELETE); it stops covering from then. */
        endedAt: timestamp('ended_at', { withTimezone: true }),
        endedBy: text('ended_by'),
    },
    (t) => [index('silences_company_idx').on(t.companyId, t.endsAt)]
);
export type SilenceRow = typeof silences.$inferSelect;
