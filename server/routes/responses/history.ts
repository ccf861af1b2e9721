import { z } from 'zod';
import type { UptimeAnswer } from '../../../common/entities';
import type { HistoryPoint } from '../../history/chart-points';
import type { MountpointHistory } from '../../history/disk-history';
import type { CheckRow } from '../../history/last-checks';
import { type Expect, type Same, timestamp } from './answers';

/** The history routes: a monitor's points and uptime, its last checks, disk history, 30-day uptime. */
const id = z.number().int();
const percent = z.number().nullable();

const point = z.object({
    t: timestamp,
    ok: z.number(),
    warning: z.number(),
    error: z.number(),
    latency_avg_ms: z.number().nullable(),
    latency_max_ms: z.number().nullable(),
    value_last: z.number().nullable(),
    value_min: z.number().nullable(),
    value_max: z.number().nullable(),
});

export const monitorHistory = z.object({
    from: timestamp,
    to: timestamp,
    step_seconds: z.number(),
    points: z.array(point),
    uptime: z.object({ '24h': percent, '7d': percent, '30d': percent, '1y': percent }),
});

const check = z.object({
    t: timestamp,
    level: z.enum(['ok', 'warning', 'error']),
    message: z.string().nullable(),
    latency_ms: z.number().nullable(),
    value: z.number().nullable(),
    source: z
        .string()
        .nullable()
        .describe('The server or chain endpoint a validator-duty check read the chain through; null for node checks'),
    locations: z
        .array(z.object({ location: z.string(), level: z.enum(['ok', 'warning', 'error', 'none']) }))
        .nullable()
        .describe(
            'What each location saw, when several checked the monitor; null for a monitor checked from one place'
        ),
});
export const lastChecks = z.object({ results: z.array(check) });

const mountpoint = z.object({
    mountpoint: z.string(),
    points: z.array(z.object({ t: timestamp, used_percent: z.number() })),
    days_until_full: z.number().nullable(),
});
export const diskHistory = z.object({ mountpoints: z.array(mountpoint) });

export const uptimeAnswer = z.object({
    monitors: z.array(z.object({ id, uptime_30d: percent })),
    configurations: z.array(z.object({ id, uptime_30d: percent })),
});

/** The CSV export, documented as text. */
export const historyCsv = { content: { 'text/csv': { schema: z.string() } } };

export type Checks = [
    Expect<Same<z.output<typeof point>, HistoryPoint>>,
    Expect<Same<z.output<typeof check>, CheckRow>>,
    Expect<Same<z.output<typeof mountpoint>, MountpointHistory>>,
    Expect<Same<z.output<typeof uptimeAnswer>, UptimeAnswer>>,
];
