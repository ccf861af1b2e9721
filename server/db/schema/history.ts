import {
    customType,
    doublePrecision,
    integer,
    pgTable,
    primaryKey,
    real,
    smallint,
    text,
    timestamp,
} from 'drizzle-orm/pg-core';
import { servers } from './servers';

/**
 * Monitor history at three resolutions (retention in server/config.ts). Rows carry no foreign key: a cascade from
 * `monitors` would turn one delete into a scan of millions of rows; the pruner removes rows of deleted monitors.
 * Columns are the narrowest that hold the data: a raw row is ~60 bytes on disk plus its index entry.
 */

/** One row per check, kept for the status bar and short ranges. level: 0 ok, 1 warning, 2 error. */
export const checkResults = pgTable(
    'check_results',
    {
        monitorId: integer('monitor_id').notNull(),
        t: timestamp('t', { withTimezone: true }).notNull(),
        level: smallint('level').notNull(),
        latencyMs: real('latency_ms'),
        value: doublePrecision('value'),
        /** Null when ok: the message is what the check said about a problem. */
        message: text('message'),
        /** The server or chain endpoint a validator-duty check read through; null for node checks. */
        source: text('source'),
        /**
         * What each location saw when several checked the monitor, packed as `fra-1:e,local:o` (see
         * server/history/location-levels.ts); null for a monitor checked from one place, so its row stays as small.
         */
        locations: text('locations'),
    },
    (t) => [primaryKey({ columns: [t.monitorId, t.t] })]
);

/** The columns of a rollup bucket; `latency_sum_ms / latency_count` is the average. */
const rollupColumns = () => ({
    monitorId: integer('monitor_id').notNull(),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    ok: integer('ok').notNull(),
    warning: integer('warning').notNull(),
    error: integer('error').notNull(),
    latencyCount: integer('latency_count').notNull(),
    latencySumMs: doublePrecision('latency_sum_ms').notNull(),
    latencyMaxMs: real('latency_max_ms'),
    valueLast: doublePrecision('value_last'),
    valueMin: doublePrecision('value_min'),
    valueMax: doublePrecision('value_max'),
});

export const history5m = pgTable('history_5m', rollupColumns(), (t) => [
    primaryKey({ columns: [t.monitorId, t.bucket] }),
]);
export const history1h = pgTable('history_1h', rollupColumns(), (t) => [
    primaryKey({ columns: [t.monitorId, t.bucket] }),
]);
/** Daily rollups (kept as long as the hourly ones): lists' 30-day uptime reads 30 rows per monitor, not 720. */
export const history1d = pgTable('history_1d', rollupColumns(), (t) => [
    primaryKey({ columns: [t.monitorId, t.bucket] }),
]);

const bytea = customType<{ data: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * The rollups of one monitor and closed day, packed (server/history/packed.ts): the hourly buckets, the 5-minute
 * ones (null past HISTORY_5M_DAYS) and the day's counts, for lists' uptime. history_5m / _1h / _1d hold the buckets
 * of the days not packed yet (the current one, and what an upgraded database had); the packer moves them here.
 */
export const historyDays = pgTable(
    'history_days',
    {
        monitorId: integer('monitor_id').notNull(),
        day: timestamp('day', { withTimezone: true }).notNull(),
        ok: integer('ok').notNull(),
        warning: integer('warning').notNull(),
        error: integer('error').notNull(),
        hours: bytea('hours').notNull(),
        fiveMinutes: bytea('five_minutes'),
    },
    (t) => [primaryKey({ columns: [t.monitorId, t.day] })]
);

/** Used % per mountpoint of a server, the last disk reading of each 15-minute bucket (days not packed yet). */
export const diskHistory = pgTable(
    'disk_history',
    {
        serverId: integer('server_id')
            .notNull()
            .references(() => servers.id, { onDelete: 'cascade' }),
        mountpoint: text('mountpoint').notNull(),
        bucket: timestamp('bucket', { withTimezone: true }).notNull(),
        usedPercent: real('used_percent').notNull(),
    },
    (t) => [primaryKey({ columns: [t.serverId, t.mountpoint, t.bucket] })]
);

/** The 15-minute disk readings of one mountpoint and closed day, packed (server/history/packed.ts, packSeries). */
export const diskDays = pgTable(
    'disk_days',
    {
        serverId: integer('server_id')
            .notNull()
            .references(() => servers.id, { onDelete: 'cascade' }),
        mountpoint: text('mountpoint').notNull(),
        day: timestamp('day', { withTimezone: true }).notNull(),
        used: bytea('used').notNull(),
    },
    (t) => [primaryKey({ columns: [t.serverId, t.mountpoint, t.day] })]
);

/** Every disk reading of the last HISTORY_RAW_HOURS (48 h): a new disk shows points within a minute, not 15. */
export const diskSamples = pgTable(
    'disk_samples',
    {
        serverId: integer('server_id')
            .notNull()
            .references(() => servers.id, { onDelete: 'cascade' }),
        mountpoint: text('mountpoint').notNull(),
        t: timestamp('t', { withTimezone: true }).notNull(),
        usedPercent: real('used_percent').notNull(),
    },
    (t) => [primaryKey({ columns: [t.serverId, t.mountpoint, t.t] })]
);
