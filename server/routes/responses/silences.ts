import { z } from 'zod';
import { type MaintenanceWindow, type Silence, WINDOW_MUTES } from '../../../common/silences';
import { type Expect, type Same, timestamp } from './answers';

/** /api/silences and /api/maintenance-windows (common/silences.ts). */
const id = z.number().int();

const target = <T extends string>(types: readonly [T, ...T[]]) =>
    z.object({
        type: z.enum(types),
        id,
        name: z.string(),
        configuration_id: id,
        configuration_name: z.string(),
    });

export const silence = z.object({
    id,
    monitor_id: id.nullable(),
    server_id: id.nullable(),
    configuration_id: id.nullable(),
    target: target(['monitor', 'server', 'configuration'] as const),
    starts_at: timestamp,
    ends_at: timestamp,
    reason: z.string(),
    created_by: z.string(),
    created_at: timestamp,
    ended_at: timestamp.nullable(),
    ended_early: z.boolean(),
    active: z.boolean(),
});

export const maintenanceWindow = z.object({
    id,
    configuration_id: id.nullable(),
    server_id: id.nullable(),
    target: target(['server', 'configuration'] as const),
    starts_at: timestamp,
    ends_at: timestamp,
    repeat_weekly: z.boolean(),
    mutes: z
        .enum(WINDOW_MUTES)
        .describe('node: only node-health monitors (urlCheck, blockCheck, disk); all: every one'),
    reason: z.string(),
    created_by: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
    active: z.boolean(),
    next_starts_at: timestamp.nullable(),
    next_ends_at: timestamp.nullable(),
});

export type Checks = [
    Expect<Same<z.output<typeof silence>, Silence>>,
    Expect<Same<z.output<typeof maintenanceWindow>, MaintenanceWindow>>,
];
