import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Named API tokens a user creates for scripts (`Authorization: Bearer nmt_…`). Stored as a SHA-256 hash; the token
 * acts as its user and ends with them: deleting the user deletes it, disabling them or changing their password
 * (token_version) makes it invalid.
 */
export const apiTokens = pgTable(
    'api_tokens',
    {
        id: serial('id').primaryKey(),
        userId: integer('user_id')
            .notNull()
            .references(() => users.id, { onDelete: 'cascade' }),
        name: text('name').notNull(),
        scope: text('scope', { enum: ['read', 'write'] }).notNull(),
        tokenHash: text('token_hash').notNull().unique(),
        /** The user's token_version when the token was made. */
        userTokenVersion: integer('user_token_version').notNull(),
        expiresAt: timestamp('expires_at', { withTimezone: true }),
        lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
        createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [index('api_tokens_user_idx').on(t.userId)]
);
