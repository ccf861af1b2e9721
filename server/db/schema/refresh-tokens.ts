import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Refresh tokens are stored hashed. Each rotation revokes the presented token and issues a new one in the same
 * family; presenting a revoked token again revokes the whole family (reuse detection). `ended_reason` says why a
 * sign-in ended (signed out, reuse, password changed…), so the next refresh can tell the browser; a token revoked
 * by its rotation alone has none.
 */
export const refreshTokens = pgTable(
    'refresh_tokens',
    {
        id: serial('id').primaryKey(),
        userId: integer('user_id')
            .notNull()
            .references(() => users.id, { onDelete: 'cascade' }),
        familyId: text('family_id').notNull(),
        tokenHash: text('token_hash').notNull().unique(),
        expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
        familyExpiresAt: timestamp('family_expires_at', { withTimezone: true }).notNull(),
        revokedAt: timestamp('revoked_at', { withTimezone: true }),
        endedReason: text('ended_reason'),
        createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [index('refresh_tokens_family_idx').on(t.familyId), index('refresh_tokens_user_idx').on(t.userId)]
);
