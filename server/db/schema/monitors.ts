import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { MONITOR_TYPES } from '../../../common/monitor-types';
import { configurations } from './configurations';
import { servers } from './servers';
import { services } from './services';

/** `status`, `last_error` and `last_check` are written by the engine only; the API never accepts them. */
export const monitors = pgTable(
    'monitors',
    {
        id: serial('id').primaryKey(),
        configurationId: integer('configuration_id')
            .notNull()
            .references(() => configurations.id, { onDelete: 'cascade' }),
        serverId: integer('server_id').references(() => servers.id, { onDelete: 'cascade' }),
        /** The service this monitor was created with: it follows that service's address and goes with it. */
        serviceId: integer('service_id').references(() => services.id, { onDelete: 'cascade' }),
        name: text('name').notNull(),
        type: text('type', { enum: MONITOR_TYPES }).notNull(),
        isEnabled: boolean('is_enabled').notNull().default(true),
        configurationObject: text('configuration_object').notNull().default('{}'),
        /** The settings' `address` encrypted when it holds a password; configuration_object keeps it masked. */
        addressSecret: text('address_secret'),
        /** The probe locations that check it (PROBE_LOCATION, common/locations.ts); null: every location. */
        locations: text('locations').array(),
        /** How many locations must see a failure in one slot before the monitor is in Error. */
        confirm: integer('confirm').notNull().default(1),
        status: boolean('status').notNull().default(true),
        lastError: text('last_error'),
        lastCheck: timestamp('last_check', { withTimezone: true }),
        createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
        updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [
        index('monitors_configuration_idx').on(t.configurationId),
        index('monitors_server_idx').on(t.serverId),
        index('monitors_service_idx').on(t.serviceId),
        index('monitors_status_idx').on(t.status),
    ]
);
export type MonitorRow = typeof monitors.$inferSelect;
