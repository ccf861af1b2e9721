import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Append-only audit trail. Deliberately no foreign keys: entries outlive the rows they name, so the names are
 * copied in at write time. Readers order by id descending (newest first) within the caller's company.
 */
export const auditEntries = pgTable(
    'audit_entries',
    {
        id: bigserial('id', { mode: 'number' }).primaryKey(),
        companyId: integer('company_id'),
        actorUserId: integer('actor_user_id'),
        ip: text('ip'),
        configurationId: integer('configuration_id'),
        configurationName: text('configuration_name'),
        serverId: integer('server_id'),
        serverName: text('server_name'),
        monitorId: integer('monitor_id'),
        monitorName: text('monitor_name'),
        message: text('message').notNull(),
        createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [index('audit_company_id_idx').on(t.companyId, t.id), index('audit_monitor_idx').on(t.monitorId, t.id)]
);
export type AuditRow = typeof auditEntries.$inferSelect;
