import { boolean, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { QUOTA_DEFAULTS } from '../../../common/company-quota';

export const companies = pgTable('companies', {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    // Engine quota: this company's share of the monitoring engine.
    maxConcurrentChecks: integer('max_concurrent_checks').notNull().default(QUOTA_DEFAULTS.max_concurrent_checks),
    minIntervalSeconds: integer('min_interval_seconds').notNull().default(QUOTA_DEFAULTS.min_interval_seconds),
    // Egress (security item 1): CIDR ranges of loopback/private/link-local targets this company may reach.
    allowedNetworks: jsonb('allowed_networks').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type CompanyRow = typeof companies.$inferSelect;
