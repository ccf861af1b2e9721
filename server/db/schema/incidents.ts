import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from './companies';

/**
 * One outage: opened when a monitor's alert (or a chain's CHAIN STALLED) is queued, closed with its recovery, in the
 * same transaction as the engine state that caused it (server/incidents/record.ts), so a restart neither re-opens
 * nor duplicates one. The id is the incident id every message prints. Like audit entries, it keeps the ids and
 * names of what it is about without foreign keys: it outlives a deleted monitor for its retention time.
 */
export const incidents = pgTable(
    'incidents',
    {
        id: text('id').primaryKey(),
        companyId: integer('company_id')
            .notNull()
            .references(() => companies.id, { onDelete: 'cascade' }),
        /** 'monitor' (one monitor's outage) or 'chain' (a chain halt pooling its nodes' blockChecks). */
        kind: text('kind', { enum: ['monitor', 'chain'] }).notNull(),
        status: text('status', { enum: ['open', 'closed'] })
            .notNull()
            .default('open'),
        severity: text('severity', { enum: ['critical', 'warning'] })
            .notNull()
            .default('critical'),
        configurationId: integer('configuration_id').notNull(),
        configurationName: text('configuration_name').notNull(),
        serverId: integer('server_id'),
        serverName: text('server_name'),
        monitorId: integer('monitor_id'),
        monitorName: text('monitor_name'),
        /** What was wrong when it opened. */
        message: text('message'),
        /** The opening notification (server/notify/record.ts, JSON): escalation and acknowledgement re-render it. */
        payload: text('payload').notNull(),
        openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
        acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
        /** Who acknowledged: a user name, or a Telegram user as `@name` or its numeric id. */
        acknowledgedBy: text('acknowledged_by'),
        acknowledgedVia: text('acknowledged_via', { enum: ['console', 'api', 'telegram'] }),
        closedAt: timestamp('closed_at', { withTimezone: true }),
    },
    (t) => [
        index('incidents_company_opened_idx').on(t.companyId, t.openedAt),
        index('incidents_open_idx').on(t.status, t.openedAt),
        index('incidents_monitor_idx').on(t.monitorId, t.openedAt),
        index('incidents_closed_idx').on(t.closedAt),
    ]
);
export type IncidentRow = typeof incidents.$inferSelect;

/**
 * The timeline of an incident beside its notifications' outbox rows (which carry `incident_id` and their delivery
 * result): what the engine decided (alert, reminder, flapping, recovery) and what people did (acknowledgement,
 * notes), and escalations, which name the channel they went to.
 */
export const incidentEvents = pgTable(
    'incident_events',
    {
        id: bigserial('id', { mode: 'number' }).primaryKey(),
        incidentId: text('incident_id')
            .notNull()
            .references(() => incidents.id, { onDelete: 'cascade' }),
        at: timestamp('at', { withTimezone: true }).notNull(),
        kind: text('kind').notNull(),
        channelId: integer('channel_id'),
        text: text('text').notNull(),
    },
    (t) => [index('incident_events_incident_idx').on(t.incidentId, t.id)]
);
