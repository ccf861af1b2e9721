import { integer, jsonb, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { monitors } from './monitors';

/**
 * The engine's memory of a monitor between checks (counters, baselines, open incident, last notification).
 * Persisted so that a restart neither forgets an open incident nor sends its alert twice.
 */
export const monitorStates = pgTable('monitor_states', {
    monitorId: integer('monitor_id')
        .primaryKey()
        .references(() => monitors.id, { onDelete: 'cascade' }),
    state: jsonb('state').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
