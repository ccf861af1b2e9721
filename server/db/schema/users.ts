import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from './companies';

/**
 * `token_version` is bumped whenever a user's sessions must end (disabled, password changed, deleted, role
 * changed); access tokens carry it and stop working the moment it moves.
 */
export const users = pgTable(
    'users',
    {
        id: serial('id').primaryKey(),
        username: text('username').notNull().unique(),
        passwordHash: text('password_hash').notNull(),
        isActive: boolean('is_active').notNull().default(true),
        isAdmin: boolean('is_admin').notNull().default(false),
        isSuperAdmin: boolean('is_super_admin').notNull().default(false),
        companyId: integer('company_id').references(() => companies.id, { onDelete: 'restrict' }),
        tokenVersion: integer('token_version').notNull().default(0),
        failedLogins: integer('failed_logins').notNull().default(0),
        lastFailedLoginAt: timestamp('last_failed_login_at', { withTimezone: true }),
        createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
        updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [index('users_company_idx').on(t.companyId)]
);
export type UserRow = typeof users.$inferSelect;
