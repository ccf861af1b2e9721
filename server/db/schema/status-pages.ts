import {
    bigserial,
    boolean,
    index,
    integer,
    pgTable,
    primaryKey,
    serial,
    text,
    timestamp,
    uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies } from './companies';
import { incidents } from './incidents';
import { monitors } from './monitors';

/**
 * A company's public status page: what its delegators or customers see at /status/{slug} without signing in.
 * A private page (`is_public` false) answers only with its access key, which is sealed like every other secret.
 */
export const statusPages = pgTable(
    'status_pages',
    {
        id: serial('id').primaryKey(),
        companyId: integer('company_id')
            .notNull()
            .references(() => companies.id, { onDelete: 'cascade' }),
        slug: text('slug').notNull(),
        title: text('title').notNull(),
        description: text('description'),
        isPublic: boolean('is_public').notNull().default(true),
        accessKey: text('access_key'),
        createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
        updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [uniqueIndex('status_pages_slug_idx').on(t.slug), index('status_pages_company_idx').on(t.companyId)]
);
export type StatusPageRow = typeof statusPages.$inferSelect;

/** The monitors a page shows, in order; a display name replaces the monitor's own name on the page. */
export const statusPageMonitors = pgTable(
    'status_page_monitors',
    {
        pageId: integer('page_id')
            .notNull()
            .references(() => statusPages.id, { onDelete: 'cascade' }),
        monitorId: integer('monitor_id')
            .notNull()
            .references(() => monitors.id, { onDelete: 'cascade' }),
        position: integer('position').notNull(),
        displayName: text('display_name'),
    },
    (t) => [primaryKey({ columns: [t.pageId, t.monitorId] }), index('status_page_monitors_monitor_idx').on(t.monitorId)]
);

/**
 * What a company tells the public about an incident (investigating, identified, monitoring, resolved): the only
 * part of an incident a status page shows besides its times; the timeline, notes and deliveries stay internal.
 */
export const incidentUpdates = pgTable(
    'incident_updates',
    {
        id: bigserial('id', { mode: 'number' }).primaryKey(),
        incidentId: text('incident_id')
            .notNull()
            .references(() => incidents.id, { onDelete: 'cascade' }),
        status: text('status', { enum: ['investigating', 'identified', 'monitoring', 'resolved'] }).notNull(),
        text: text('text').notNull(),
        createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
        createdBy: text('created_by').notNull(),
    },
    (t) => [index('incident_updates_incident_idx').on(t.incidentId, t.id)]
);
export type IncidentUpdateRow = typeof incidentUpdates.$inferSelect;

/**
 * A visitor subscribed to a page's incidents and maintenance, by email (confirmed through a link first) or by
 * webhook. `token` names the subscription in its confirm and unsubscribe links.
 */
export const statusSubscribers = pgTable(
    'status_subscribers',
    {
        id: serial('id').primaryKey(),
        pageId: integer('page_id')
            .notNull()
            .references(() => statusPages.id, { onDelete: 'cascade' }),
        kind: text('kind', { enum: ['email', 'webhook'] }).notNull(),
        address: text('address').notNull(),
        token: text('token').notNull(),
        /** The console's address as the visitor reached it, for the links in their messages. */
        baseUrl: text('base_url').notNull().default(''),
        confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
        createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [
        uniqueIndex('status_subscribers_token_idx').on(t.token),
        uniqueIndex('status_subscribers_address_idx').on(t.pageId, t.kind, t.address),
    ]
);
export type StatusSubscriberRow = typeof statusSubscribers.$inferSelect;
