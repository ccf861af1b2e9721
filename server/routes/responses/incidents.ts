import { z } from 'zod';
import type { Incident, IncidentStats, OpenIncidentRef } from '../../../common/incidents';
import { type Expect, type Same, timestamp } from './answers';

/** /api/incidents (common/incidents.ts). */
const id = z.number().int();

export const openIncidentRef = z.object({
    id: z.string(),
    opened_at: timestamp,
    acknowledged_by: z.string().nullable(),
});

const timelineEntry = z.object({
    at: timestamp,
    kind: z.string(),
    channel_id: id.optional(),
    channel_name: z.string().optional(),
    result: z.enum(['sent', 'pending', 'failed']).optional(),
    text: z.string(),
    until: timestamp.optional().describe('recovery-held: when the channels get the recovery (the window ends)'),
});

export const incident = z.object({
    id: z.string(),
    status: z.enum(['open', 'closed']),
    severity: z.enum(['critical', 'warning']),
    kind: z.enum(['monitor', 'chain']),
    monitor_id: id.nullable(),
    server_id: id.nullable(),
    configuration_id: id,
    monitor_name: z.string().nullable(),
    server_name: z.string().nullable(),
    configuration_name: z.string(),
    message: z.string().nullable(),
    opened_at: timestamp,
    acknowledged_at: timestamp.nullable(),
    acknowledged_by: z.string().nullable(),
    acknowledged_via: z.enum(['console', 'api', 'telegram']).nullable(),
    closed_at: timestamp.nullable(),
    duration_seconds: z.number(),
    timeline: z.array(timelineEntry).optional().describe('On GET /api/incidents/{id} only, oldest first'),
});

export const incidentStats = z.object({
    count: z.number().int(),
    acknowledged: z.number().int(),
    closed: z.number().int(),
    mtta_seconds: z.number().nullable(),
    mttr_seconds: z.number().nullable(),
});

export type Checks = [
    Expect<Same<z.output<typeof incident>, Incident>>,
    Expect<Same<z.output<typeof incidentStats>, IncidentStats>>,
    Expect<Same<z.output<typeof openIncidentRef>, OpenIncidentRef>>,
];
