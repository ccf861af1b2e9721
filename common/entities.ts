import type { LocationResult } from './locations';
import type { ChainEndpoint } from './chain-endpoints';
import type { OpenIncidentRef } from './incidents';
import type { ChannelType } from './channel-types';
import type { MonitorType } from './monitor-types';
import type { ServiceType } from './service-types';

/** Wire shapes of the API (docs/spec.md §3, §7); dates travel as ISO strings. */
export interface CompanyRef {
    id: number;
    name: string;
}

export interface Company extends CompanyRef {
    is_active: boolean;
    /** Engine quota: checks of this company in flight at once. */
    max_concurrent_checks: number;
    /** Engine quota: the shortest interval its monitors run at, in seconds. */
    min_interval_seconds: number;
    /** CIDR ranges of private targets the company's checks may reach (set by super admins). */
    allowed_networks: string[];
    created_at: string;
    updated_at: string;
}

export interface User {
    id: number;
    username: string;
    is_active: boolean;
    is_admin: boolean;
    is_super_admin: boolean;
    company: CompanyRef | null;
    company_id: number | null;
    created_at: string;
    updated_at: string;
}

export interface Configuration {
    id: number;
    name: string;
    chain: string;
    is_enabled: boolean;
    company: CompanyRef | null;
    company_id: number;
    /** Beside the spec's fields: RPC/REST endpoints of the chain the validator-duty monitors may read through. */
    chain_endpoints: ChainEndpoint[];
    servers: Server[];
    monitors: Monitor[];
    createdAt: string;
    updatedAt: string;
    /** Beside the spec's fields on GET /api/configurations/{id}: 30-day uptime of all its monitors' checks. */
    uptime_30d?: number | null;
}

export interface Server {
    id: number;
    name: string;
    address: string;
    is_enabled: boolean;
    configuration_id: number;
    configuration?: { id: number; name: string; chain: string };
    /** Present on the server endpoints; left out where the server is nested in a configuration, whose own
     * `monitors` list carries each monitor once with its `server_id`. */
    monitors?: Monitor[];
    createdAt: string;
    updatedAt: string;
}

export interface Service {
    id: number;
    name: string;
    type: ServiceType;
    address: string;
    is_enabled: boolean;
    server_id: number;
}

export interface Monitor {
    id: number;
    name: string;
    type: MonitorType;
    is_enabled: boolean;
    configuration_id: number;
    server_id: number | null;
    /** The service the monitor was created with, which it follows and is deleted with; null for any other. */
    service_id?: number | null;
    server: { id: number; name: string; address: string } | null;
    configuration?: { id: number; name: string; chain: string };
    configuration_object: string;
    status: boolean;
    last_error: string | null;
    last_check: string | null;
    /** The probe locations that check it (common/locations.ts); null: every location. */
    locations: string[] | null;
    /** How many locations must see a failure in one slot before it is in Error. */
    confirm: number;
    /**
     * On GET /monitors/{id} when more than one location checks it: each location's latest result and latency.
     */
    location_results?: LocationResult[];
    /** On the failed-monitors answer, beside the spec's fields: the chain halt this monitor's alert is part of. */
    chain_halt?: ChainHaltRef;
    /**
     * Beside the spec's fields, on the monitor endpoints: while a silence or maintenance window holds this monitor's
     * alerts back, when that ends and why; absent otherwise.
     */
    silenced_until?: string;
    silence_reason?: string;
    /** On the failed-monitors answer and GET /monitors/{id}: the open incident the monitor is part of. */
    incident?: OpenIncidentRef;
    /**
     * Beside the spec's fields on the dashboard's failed and warning lists and a configuration's monitors: percent
     * of the last 30 days' checks that were not Error; null without checks.
     */
    uptime_30d?: number | null;
}

/** GET /api/uptime: 30-day uptime of the caller's monitors and configurations (one configuration's with `configuration_id`). */
export interface UptimeAnswer {
    monitors: { id: number; uptime_30d: number | null }[];
    configurations: { id: number; uptime_30d: number | null }[];
}

/** One chain halt as the engine groups it: every monitor of the halt carries the same id. */
export interface ChainHaltRef {
    id: string;
    /** The height the chain stands at. */
    height: number;
    /** When the chain last advanced. */
    since: string;
}

export interface ServerMetrics {
    usedDiskSpace: number;
    totalDiskSpace: number;
    usedDiskSpacePercentage: number;
    memoryUsage: number;
    totalMemory: number;
    memoryUsagePercentage: number;
    /** Mountpoint the disk figures belong to (the fullest real filesystem). */
    mountpoint?: string;
    /**
     * Beside the spec's fields: days until that mountpoint is full at its last 7 days' growth (disk monitor history);
     * null when not growing or not yet known.
     */
    days_until_full?: number | null;
}

export interface NotificationChannel {
    id: number;
    name: string;
    type: ChannelType;
    is_enabled: boolean;
    configuration_object: string;
    company_id: number;
    created_at: string;
    /** Beside the spec's fields: whether messages to the channel are being delivered (from the outbox). */
    delivery?: ChannelDelivery;
}

/** 'failing' while the last message tried was refused or given up and none was accepted since. */
export interface ChannelDelivery {
    status: 'ok' | 'failing';
    last_error: string | null;
    /** When the first message of the failing run was queued. */
    since: string | null;
}

export interface ChannelLink {
    id: number;
    configuration_id: number;
    notification_channel_id: number;
    notification_channel: Pick<NotificationChannel, 'id' | 'type' | 'name' | 'is_enabled'>;
    /**
     * Routing, beside docs/spec.md §7's fields and present only where it differs from the default (critical, true, true), so
     * a link that was never routed reads exactly as the spec shows it.
     */
    min_severity?: LinkSeverity;
    send_recoveries?: boolean;
    send_reminders?: boolean;
    /** Escalation: the channel gets an incident only once it stayed unacknowledged this long; absent sends at once. */
    escalate_after_minutes?: number;
}

export const LINK_SEVERITIES = ['critical', 'warning'] as const;
export type LinkSeverity = (typeof LINK_SEVERITIES)[number];

/** The routing a link may be created or edited with; each omitted one keeps its default (or stored) value. */
export interface LinkRouting {
    min_severity?: LinkSeverity;
    send_recoveries?: boolean;
    send_reminders?: boolean;
    /** null sends at once again. */
    escalate_after_minutes?: number | null;
}

/** The longest escalation delay a link takes (a week). */
export const MAX_ESCALATION_MINUTES = 10_080;

export interface AuditEntry {
    id: number;
    configuration: { id: number; name: string } | null;
    server: { id: number; name: string } | null;
    monitor: { id: number; name: string } | null;
    created_at: string;
    message: string;
}

export interface LogMessage {
    level: 'debug' | 'info' | 'warn' | 'error';
    message: string;
    timestamp: string;
}

export interface Chain {
    name: string;
    pretty_name: string;
    chain_id: string;
    bech32_prefix: string;
    network_type?: string;
}

/** Every 4xx body (architecture §3). */
export interface ApiError {
    message: string;
    errors?: Record<string, string>;
}

/** GET /api/servers/{id}/node: the server's node as its rpc service tells it (CometBFT /status and /net_info). */
export interface NodeStatus {
    height: number;
    latest_block_time: string | null;
    /** Seconds since the node's latest block. */
    block_lag_seconds: number | null;
    peers: number;
    catching_up: boolean;
}
