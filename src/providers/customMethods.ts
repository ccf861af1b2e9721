import type { IncidentStats } from '../../common/incidents';
import type { MonitorLocationResults } from '../../common/locations';
import type { Identifier } from 'react-admin';

import type {
    Chain,
    ChannelLink,
    LinkRouting,
    Monitor,
    NodeStatus,
    NotificationChannel,
    ServerMetrics,
} from '../../common/entities';
import type { IncidentUpdate, PublicStatusAnswer, StatusSubscriber } from '../../common/status-pages';
import type { ValidatorCard } from '../../common/validator-card';
import { toBody } from './bodies';
import type { HttpResponse, RequestOptions } from './httpClient';
import { request } from './httpClient';
import { listRecords } from './listParams';
import { type LogEventCallback, logRealtime } from './logSocket';
import { authRequest, getAccessToken } from './session';

const id = (value: Identifier) => encodeURIComponent(String(value));

async function getJson<T>(path: string, options?: RequestOptions): Promise<T> {
    return (await authRequest<T>(path, options)).json as T;
}

async function getArray<T>(path: string): Promise<T[]> {
    return listRecords<T>((await authRequest(path)).json);
}

/** The dashboard's Storage Usage figure; `fullest` is null until a disk-space monitor has read a disk. */
export interface StorageUsage {
    fullest: {
        server: { id: number; name: string };
        mountpoint: string;
        usedDiskSpacePercentage: number;
        usedDiskSpace: number;
        totalDiskSpace: number;
        at: string;
    } | null;
}

/** GET /health: `database` is present while the database fails (it cannot write, or does not answer). */
export interface ServerHealth {
    status: string;
    message?: string;
    database?: { status: 'failing'; message: string; since?: string };
}

export interface ServiceDependents {
    removed: Pick<Monitor, 'id' | 'name' | 'type'>[];
    losing_data_source: Pick<Monitor, 'id' | 'name' | 'type'>[];
}

export interface CustomMethods {
    /** GET /health, public; resolves with the body of a 503 too (it says what fails). */
    getHealth(): Promise<ServerHealth>;
    getConfigurationChannels(configurationId: Identifier): Promise<ChannelLink[]>;
    /** GET /configurations/{id}/validator: the Validator card's figures. */
    getConfigurationValidator(configurationId: Identifier): Promise<ValidatorCard>;
    addConfigurationChannel(configurationId: Identifier, channelId: Identifier): Promise<ChannelLink | null>;
    removeConfigurationChannel(configurationId: Identifier, linkId: Identifier): Promise<void>;
    /** PUT /configurations/{id}/notification-channels/{linkId}: the link's routing. */
    updateConfigurationChannel(
        configurationId: Identifier,
        linkId: Identifier,
        routing: LinkRouting
    ): Promise<ChannelLink | null>;
    getServerMetrics(serverId: Identifier): Promise<ServerMetrics>;
    /** GET /servers/{id}/node: height, block lag, peers and catching-up of the server's node (its rpc service). */
    getNodeStatus(serverId: Identifier): Promise<NodeStatus>;
    /** GET /monitors/location-results: each location's latest result of the monitors several locations check. */
    getMonitorLocationResults(): Promise<MonitorLocationResults[]>;
    /** GET /services/{id}/test: the HTTP status (200 = success) with the API's `message`, which says why not. */
    probeService(serviceId: Identifier): Promise<{ status: number; message: string | null }>;
    /** GET /services/{id}/dependents: the monitors a delete removes, and those it leaves without a data source. */
    getServiceDependents(serviceId: Identifier): Promise<ServiceDependents>;
    getFailedMonitors(): Promise<Monitor[]>;
    getWarningMonitors(): Promise<Monitor[]>;
    /** GET /servers/storage: the fullest disk among the caller's servers, from the disk monitors' latest readings. */
    getStorageUsage(): Promise<StorageUsage>;
    /**
     * POST /notification-channels/test; resolves to the server's `{message}`. Pass `id` for a saved channel so
     * the server uses its stored bot token when the form still holds the masked one.
     */
    testNotificationChannel(
        channel: Pick<NotificationChannel, 'name' | 'type' | 'configuration_object' | 'is_enabled'> &
            Partial<Pick<NotificationChannel, 'id' | 'company_id'>>
    ): Promise<unknown>;
    /** Realtime (react-admin convention): the `logs` topic streams the server's log lines (see logSocket.ts). */
    subscribe(topic: string, callback: LogEventCallback): Promise<{ data: null }>;
    unsubscribe(topic: string, callback: LogEventCallback): Promise<{ data: null }>;
    /** Chain names for the configuration form (GET /chains: the server's cached proxy of the chain directory). */
    getChains(): Promise<Chain[]>;
    /** GET /incidents/stats: MTTA and MTTR over the incidents the list's `filter` matches. */
    getIncidentStats(filter: Record<string, unknown>): Promise<IncidentStats>;
    /** GET /status-pages/{id}/preview: what visitors of the page see now. */
    getStatusPagePreview(pageId: Identifier): Promise<PublicStatusAnswer>;
    /** GET /status-pages/{id}/subscribers: who gets told of the page's incidents and maintenance. */
    getStatusPageSubscribers(pageId: Identifier): Promise<StatusSubscriber[]>;
    /** GET /incidents/{id}/updates: the public updates posted on an incident, oldest first. */
    getIncidentUpdates(incidentId: string): Promise<IncidentUpdate[]>;
}

/**
 * Calls that are not CRUD on one resource (docs/spec.md §7's other routes); components reach them through
 * `useNodeMonitorDataProvider()`. A new one goes here, with its line in `CustomMethods` above.
 */
export const customMethods: CustomMethods = {
    getConfigurationValidator: (configurationId) =>
        getJson<ValidatorCard>(`/configurations/${id(configurationId)}/validator`),
    getConfigurationChannels: (configurationId) =>
        getArray<ChannelLink>(`/configurations/${id(configurationId)}/notification-channels`),
    addConfigurationChannel: async (configurationId, channelId) =>
        (
            await authRequest<ChannelLink>(`/configurations/${id(configurationId)}/notification-channels`, {
                method: 'POST',
                body: { configuration_id: Number(configurationId), notification_channel_id: Number(channelId) },
            })
        ).json,
    updateConfigurationChannel: async (configurationId, linkId, routing) =>
        (
            await authRequest<ChannelLink>(
                `/configurations/${id(configurationId)}/notification-channels/${id(linkId)}`,
                { method: 'PUT', body: routing }
            )
        ).json,
    removeConfigurationChannel: async (configurationId, linkId) => {
        await authRequest(`/configurations/${id(configurationId)}/notification-channels/${id(linkId)}`, {
            method: 'DELETE',
        });
    },
    getServerMetrics: (serverId) => getJson<ServerMetrics>(`/servers/${id(serverId)}/metrics`),
    getNodeStatus: (serverId) => getJson<NodeStatus>(`/servers/${id(serverId)}/node`),
    getMonitorLocationResults: async () =>
        (await getJson<{ results?: MonitorLocationResults[] }>('/monitors/location-results')).results ?? [],
    probeService: async (serviceId) => {
        const response: HttpResponse = await request(`/services/${id(serviceId)}/test`, {
            token: await getAccessToken(),
        });
        const json = response.json as { message?: unknown } | null;
        const message = json && typeof json.message === 'string' && json.message !== '' ? json.message : null;
        return { status: response.status, message };
    },
    getServiceDependents: (serviceId) => getJson<ServiceDependents>(`/services/${id(serviceId)}/dependents`),
    getFailedMonitors: () => getArray<Monitor>('/monitors/failed'),
    getStorageUsage: () => getJson<StorageUsage>('/servers/storage'),
    getWarningMonitors: () => getArray<Monitor>('/monitors/warnings'),
    testNotificationChannel: async (channel) =>
        (
            await authRequest('/notification-channels/test', {
                method: 'POST',
                body: {
                    ...toBody('notification-channels', channel as unknown as Record<string, unknown>),
                    ...(channel.id !== undefined ? { id: channel.id } : {}),
                },
            })
        ).json,
    subscribe: logRealtime.subscribe,
    unsubscribe: logRealtime.unsubscribe,
    getHealth: async () => (await request<ServerHealth>('/health')).json ?? { status: 'unavailable' },
    getIncidentStats: (filter) => getJson('/incidents/stats', { query: { filter: JSON.stringify(filter) } }),
    getStatusPagePreview: (pageId) => getJson<PublicStatusAnswer>(`/status-pages/${id(pageId)}/preview`),
    getStatusPageSubscribers: (pageId) => getArray<StatusSubscriber>(`/status-pages/${id(pageId)}/subscribers`),
    getIncidentUpdates: (incidentId) => getArray<IncidentUpdate>(`/incidents/${id(incidentId)}/updates`),
    getChains: async () => {
        const json = (await authRequest('/chains')).json;
        if (json && typeof json === 'object' && 'chains' in json && Array.isArray(json.chains)) {
            return json.chains as Chain[];
        }
        return listRecords<Chain>(json);
    },
};
