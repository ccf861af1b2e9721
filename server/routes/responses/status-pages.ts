import { z } from 'zod';
import type { IncidentUpdate, PublicStatusAnswer, StatusPage, StatusSubscriber } from '../../../common/status-pages';
import { INCIDENT_UPDATE_STATUSES } from '../../../common/status-pages';
import { type Expect, type Same, timestamp } from './answers';

/** /api/status-pages, incident updates and the public status answer (common/status-pages.ts). */
const id = z.number().int();
const publicStatus = z.enum(['operational', 'degraded', 'down']);
const updateStatus = z.enum(INCIDENT_UPDATE_STATUSES);

export const statusPage = z.object({
    id,
    company_id: id,
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    is_public: z.boolean(),
    access_key: z.string().nullable(),
    monitor_ids: z.array(id),
    display_names: z.record(z.string(), z.string()),
    url: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
});

export const incidentUpdate = z.object({
    id,
    incident_id: z.string(),
    status: updateStatus,
    text: z.string(),
    created_at: timestamp,
    created_by: z.string(),
});

export const publicStatusAnswer = z.object({
    title: z.string(),
    description: z.string().nullable(),
    status: publicStatus,
    components: z.array(
        z.object({
            name: z.string(),
            status: publicStatus,
            uptime_90d: z.number().nullable(),
            days: z.array(z.object({ date: z.string(), uptime: z.number().nullable() })),
        })
    ),
    incidents: z.array(
        z.object({
            title: z.string(),
            status: updateStatus,
            started_at: timestamp,
            resolved_at: timestamp.optional(),
            updates: z.array(z.object({ status: updateStatus, text: z.string(), at: timestamp })),
        })
    ),
    maintenance: z.array(z.object({ starts_at: timestamp, ends_at: timestamp, reason: z.string() })),
});

export const subscriber = z.object({
    id,
    kind: z.enum(['email', 'webhook']),
    address: z.string(),
    confirmed: z.boolean(),
    created_at: timestamp,
});

export const svgBadge = { content: { 'image/svg+xml': { schema: z.string() } } };

export type Checks = [
    Expect<Same<z.output<typeof statusPage>, StatusPage>>,
    Expect<Same<z.output<typeof incidentUpdate>, IncidentUpdate>>,
    Expect<Same<z.output<typeof publicStatusAnswer>, PublicStatusAnswer>>,
    Expect<Same<z.output<typeof subscriber>, StatusSubscriber>>,
];
