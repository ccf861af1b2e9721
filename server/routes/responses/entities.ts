import { CHAIN_ENDPOINT_TYPES } from '../../../common/chain-endpoints';
import { z } from 'zod';
import { CHANNEL_TYPES } from '../../../common/channel-types';
import type {
    AuditEntry,
    Chain,
    ChannelLink,
    Company,
    Configuration,
    Monitor,
    NotificationChannel,
    Server,
    ServerMetrics,
    Service,
    User,
} from '../../../common/entities';
import { LINK_SEVERITIES } from '../../../common/entities';
import type { MonitorLocationResults } from '../../../common/locations';
import { MONITOR_TYPES } from '../../../common/monitor-types';
import { SERVICE_TYPES } from '../../../common/service-types';
import { type Expect, type Same, timestamp } from './answers';
import { openIncidentRef } from './incidents';

/** The wire shapes of docs/spec.md §3 and §7, as common/entities.ts types them (checked below, field by field). */
const id = z.number().int();
const ref = z.object({ id, name: z.string() });

export const company = z.object({
    id,
    name: z.string(),
    is_active: z.boolean(),
    max_concurrent_checks: z.number().int(),
    min_interval_seconds: z.number().int(),
    allowed_networks: z.array(z.string()),
    created_at: timestamp,
    updated_at: timestamp,
});

export const user = z.object({
    id,
    username: z.string(),
    is_active: z.boolean(),
    is_admin: z.boolean(),
    is_super_admin: z.boolean(),
    company: ref.nullable(),
    company_id: id.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
});

const configurationRef = z.object({ id, name: z.string(), chain: z.string() });

/** One location's latest check of a monitor checked from several (common/locations.ts). */
const locationResult = z.object({
    location: z.string(),
    level: z.enum(['ok', 'warning', 'error', 'none']).describe('none: the location did not answer in time'),
    message: z.string().nullable(),
    latency_ms: z.number().nullable(),
    checked_at: timestamp,
});

/** GET /api/monitors/location-results: per monitor that several locations check, each one's latest result. */
export const locationResults = z.object({
    results: z.array(z.object({ monitor_id: z.number().int(), location_results: z.array(locationResult) })),
});

export const monitor = z.object({
    id,
    name: z.string(),
    type: z.enum(MONITOR_TYPES),
    is_enabled: z.boolean(),
    configuration_id: id,
    server_id: id.nullable(),
    service_id: id.nullable().optional(),
    server: z.object({ id, name: z.string(), address: z.string() }).nullable(),
    configuration: configurationRef.optional(),
    configuration_object: z.string().describe('The settings, a JSON string'),
    status: z.boolean(),
    last_error: z.string().nullable(),
    last_check: timestamp.nullable(),
    locations: z.array(z.string()).nullable().describe('The probe locations that check it; null: every location'),
    confirm: z.number().int().describe('How many locations must see a failure before it is in Error'),
    location_results: z
        .array(locationResult)
        .optional()
        .describe('On one monitor checked from several locations: each location’s latest result'),
    chain_halt: z
        .object({ id: z.string(), height: z.number().int(), since: timestamp })
        .optional()
        .describe('On the failed list: the chain halt this monitor’s alert is part of'),
    silenced_until: timestamp.optional().describe('While a silence or maintenance window holds its alerts back'),
    silence_reason: z.string().optional(),
    incident: openIncidentRef.optional().describe('On the failed list and one monitor: its open incident'),
    uptime_30d: z.number().nullable().optional().describe('Percent of the last 30 days’ checks that were not Error'),
});

/** A monitor as written: `warnings` when the saved settings cannot work as they are. */
export const monitorWritten = monitor.extend({ warnings: z.array(z.string()).optional() });

export const server = z.object({
    id,
    name: z.string(),
    address: z.string(),
    is_enabled: z.boolean(),
    configuration_id: id,
    configuration: configurationRef.optional(),
    monitors: z.array(monitor).optional(),
    createdAt: timestamp,
    updatedAt: timestamp,
});

export const configuration = z.object({
    id,
    name: z.string(),
    chain: z.string(),
    is_enabled: z.boolean(),
    company: ref.nullable(),
    company_id: id,
    chain_endpoints: z
        .array(z.object({ type: z.enum(CHAIN_ENDPOINT_TYPES), address: z.string() }))
        .describe(
            "RPC/REST endpoints of the chain the validator-duty monitors may read through, beside the servers' services"
        ),
    servers: z.array(server),
    monitors: z.array(monitor),
    createdAt: timestamp,
    updatedAt: timestamp,
    uptime_30d: z.number().nullable().optional().describe('On one configuration: 30-day uptime of its monitors'),
});

export const service = z.object({
    id,
    name: z.string(),
    type: z.enum(SERVICE_TYPES),
    address: z.string(),
    is_enabled: z.boolean(),
    server_id: id,
});

export const channel = z.object({
    id,
    name: z.string(),
    type: z.enum(CHANNEL_TYPES),
    is_enabled: z.boolean(),
    configuration_object: z.string().describe('The settings, a JSON string, secrets masked'),
    company_id: id,
    created_at: timestamp,
    delivery: z
        .object({
            status: z.enum(['ok', 'failing']),
            last_error: z.string().nullable(),
            since: timestamp.nullable(),
        })
        .optional()
        .describe('On reads: whether messages to the channel are being delivered'),
});

export const channelLink = z.object({
    id,
    configuration_id: id,
    notification_channel_id: id,
    notification_channel: z.object({
        id,
        type: z.enum(CHANNEL_TYPES),
        name: z.string(),
        is_enabled: z.boolean(),
    }),
    min_severity: z.enum(LINK_SEVERITIES).optional(),
    send_recoveries: z.boolean().optional(),
    send_reminders: z.boolean().optional(),
    escalate_after_minutes: z.number().int().optional(),
});

export const auditEntry = z.object({
    id,
    configuration: ref.nullable(),
    server: ref.nullable(),
    monitor: ref.nullable(),
    created_at: timestamp,
    message: z.string(),
});

export const chain = z.object({
    name: z.string(),
    pretty_name: z.string(),
    chain_id: z.string(),
    bech32_prefix: z.string(),
    network_type: z.string().optional(),
});

export const serverMetrics = z.object({
    usedDiskSpace: z.number(),
    totalDiskSpace: z.number(),
    usedDiskSpacePercentage: z.number(),
    memoryUsage: z.number(),
    totalMemory: z.number(),
    memoryUsagePercentage: z.number(),
    mountpoint: z.string().optional(),
    days_until_full: z.number().nullable().optional().describe('At its last 7 days’ growth; null when not growing'),
});

/** Fails to compile when a schema and its entity type differ in any field, so no field is silently stripped. */
export type SchemasMatchEntities = [
    Expect<Same<z.output<typeof company>, Company>>,
    Expect<Same<z.output<typeof user>, User>>,
    Expect<Same<z.output<typeof monitor>, Monitor>>,
    Expect<Same<z.output<typeof server>, Server>>,
    Expect<Same<z.output<typeof configuration>, Configuration>>,
    Expect<Same<z.output<typeof service>, Service>>,
    Expect<Same<z.output<typeof channel>, NotificationChannel>>,
    Expect<Same<z.output<typeof channelLink>, ChannelLink>>,
    Expect<Same<z.output<typeof auditEntry>, AuditEntry>>,
    Expect<Same<z.output<typeof chain>, Chain>>,
    Expect<Same<z.output<typeof serverMetrics>, ServerMetrics>>,
    Expect<Same<z.output<typeof locationResults>['results'][number], MonitorLocationResults>>,
];
