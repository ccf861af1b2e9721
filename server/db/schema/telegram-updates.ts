import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Per bot token (by its SHA-256, never the token itself): the getUpdates offset, so that a button press is applied
 * once across restarts, and the problem that stops polling (a webhook set on the bot), reported once.
 */
export const telegramUpdates = pgTable('telegram_updates', {
    tokenHash: text('token_hash').primaryKey(),
    nextOffset: bigint('next_offset', { mode: 'number' }).notNull().default(0),
    problem: text('problem'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
