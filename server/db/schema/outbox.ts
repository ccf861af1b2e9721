import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Notifications waiting to be delivered. A row is written in the same step as the state change that caused it
 * and deleted (marked sent) only after the channel accepted it, so a crash or an outage delays but never loses
 * a message. Delivery is in id order per channel.
 */
export const outbox = pgTable(
    'outbox',
    {
        id: bigserial('id', { mode: 'number' }).primaryKey(),
        channelId: integer('channel_id').notNull(),
        monitorId: integer('monitor_id'),
        /** The incident the notification is about (server/db/schema/incidents.ts), for its timeline; null for tests. */
        incidentId: text('incident_id'),
        /** alert | reminder | recovery | test */
        kind: text('kind').notNull(),
        text: text('text').notNull(),
        /** One compact line (HTML) standing for the row in a digest; null for rows that have none (tests, older rows). */
        summary: text('summary'),
        /**
         * The notification as plain data (server/notify/record.ts, JSON), which each channel type renders in its own
         * markup; null for rows written before it existed, which go out as `text`.
         */
        payload: text('payload'),
        /**
         * held: an alert, reminder or recovery kept back, until `next_attempt_at` at most, while the outbox learns
         * whether its whole server is down, or its others remind too (server/notify/server-hold.ts); it then turns
         * pending, alone or with its group.
         */
        status: text('status', { enum: ['pending', 'held', 'sent', 'failed'] })
            .notNull()
            .default('pending'),
        /**
         * `server/<id>` while a row is held for its server; `server/<id>/<first incident id>` once released with the
         * rows of every other failing monitor of that server, which go out as one message (the same key for the
         * reminders, escalations and recoveries of those incidents). Null for a row sent on its own.
         */
        groupKey: text('group_key'),
        attempts: integer('attempts').notNull().default(0),
        nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
        lastError: text('last_error'),
        createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
        sentAt: timestamp('sent_at', { withTimezone: true }),
    },
    (t) => [
        index('outbox_due_idx').on(t.status, t.nextAttemptAt),
        index('outbox_channel_idx').on(t.channelId, t.id),
        index('outbox_incident_idx').on(t.incidentId),
    ]
);
