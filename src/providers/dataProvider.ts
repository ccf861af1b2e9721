import type { IncidentStats } from '../../common/incidents';
import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider, GetListParams, Identifier, RaRecord } from 'react-admin';
import { useDataProvider, withLifecycleCallbacks } from 'react-admin';

import type {
    Chain,
    ChannelLink,
    LinkRouting,
    Monitor,
    NotificationChannel,
    ServerMetrics,
} from '../../common/entities';
import type { ValidatorCard } from '../../common/validator-card';
import { type HistoryMethods, historyMethods } from './history';
import type { HttpResponse, RequestOptions } from './httpClient';
import { request } from './httpClient';
import { applyListParams, listRecords } from './listParams';
import { type LogEventCallback, logRealtime } from './logSocket';
import { authRequest, getAccessToken } from './session';

/**
 * react-admin's simple REST provider (`GET /{res}?sort=&range=&filter=` answered with `Content-Range`, `GET /{res}/{id}`,
 * POST, PUT, DELETE) over the console's HTTP client (session, refresh, spec §8's fabricated 500), with overrides only
 * where the spec's API differs:
 * - list answers without `Content-Range` (the spec's bare arrays and `{results: []}`) are sorted, filtered and paged
 *   here, in the HTTP client below, so every list takes the same path;
 * - nested lists (a configuration's servers, a server's services) come from `/{parent}/{id}/{res}`;
 * - bodies keep only the fields the API accepts (`toBody`, as a lifecycle callback);
 * - a delete answered without a body resolves with the record it deleted.
 */

/** The body fields each resource accepts on POST and PUT (the API rejects unknown fields). */
export const BODY_FIELDS: Record<string, readonly string[]> = {
    companies: ['name', 'is_active', 'max_concurrent_checks', 'min_interval_seconds', 'allowed_networks'],
    users: ['username', 'is_active', 'is_admin', 'is_super_admin', 'company_id', 'raw_password'],
    configurations: ['name', 'chain', 'is_enabled', 'company_id'],
    servers: ['name', 'is_enabled', 'address', 'configuration_id'],
    monitors: [
        'id',
        'name',
        'is_enabled',
        'configuration_id',
        'server_id',
        'type',
        'configuration_object',
        'service_id',
    ],
    'notification-channels': ['name', 'type', 'configuration_object', 'is_enabled', 'company_id'],
    services: ['name', 'address', 'is_enabled', 'type', 'server_id'],
    silences: ['monitor_id', 'server_id', 'configuration_id', 'starts_at', 'ends_at', 'reason'],
    'maintenance-windows': ['configuration_id', 'server_id', 'starts_at', 'ends_at', 'repeat_weekly', 'reason'],
};

/** Resources whose list lives elsewhere than `/{res}`. */
const LIST_PATHS: Record<string, string> = { audit: 'audit/latest' };

/** Nested list endpoints: resource → reference field → parent resource. */
const NESTED: Record<string, Record<string, string>> = {
    servers: { configuration_id: 'configurations' },
    monitors: { configuration_id: 'configurations', server_id: 'servers' },
    services: { server_id: 'servers' },
};

/** Keeps the resource's body fields; a password is sent only when filled in, never as an empty string. */
export function toBody(resource: string, data: Record<string, unknown>): Record<string, unknown> {
    const fields = BODY_FIELDS[resource];
    const body: Record<string, unknown> = {};
    if (fields) {
        for (const field of fields) if (data[field] !== undefined) body[field] = data[field];
    } else {
        for (const [key, value] of Object.entries(data)) {
            if (!['id', 'created_at', 'updated_at', 'createdAt', 'updatedAt'].includes(key)) body[key] = value;
        }
    }
    if ('raw_password' in body && (typeof body.raw_password !== 'string' || body.raw_password === '')) {
        delete body.raw_password;
    }
    return body;
}

const LIST_PARAMS = ['sort', 'range', 'filter'];

/**
 * A GET list answer without `Content-Range` (a server or endpoint that answers the whole array): sorted, filtered
 * and paged here by the request's own parameters, with the `Content-Range` the server would have sent.
 */
function pageLocally(url: string, response: HttpResponse): HttpResponse {
    const json = response.json;
    const isList = Array.isArray(json) || (json !== null && typeof json === 'object' && 'results' in json);
    if (!isList) return response;
    const query = new URLSearchParams(url.split('?')[1] ?? '');
    if (response.headers.has('Content-Range') || !LIST_PARAMS.some((p) => query.has(p))) {
        return { ...response, json: listRecords(json) };
    }
    const read = <T>(name: string): T | undefined => {
        const value = query.get(name);
        return value === null ? undefined : (JSON.parse(value) as T);
    };
    const sort = read<[string, 'ASC' | 'DESC']>('sort');
    const range = read<[number, number]>('range');
    const params: Partial<GetListParams> = {
        filter: read<Record<string, unknown>>('filter') ?? {},
        ...(sort ? { sort: { field: sort[0], order: sort[1] } } : {}),
        ...(range ? { pagination: { page: 1, perPage: 0 } } : {}),
    };
    const { data, total } = applyListParams(listRecords<Record<string, unknown>>(json), params);
    const [first, last] = range ?? [0, total - 1];
    const page = data.slice(first, last + 1);
    const headers = new Headers(response.headers);
    headers.set('Content-Range', `items ${first}-${first + Math.max(page.length - 1, 0)}/${total}`);
    return { ...response, headers, json: page };
}

/** react-admin's `fetchJson` signature over the console's authenticated request. */
async function httpClient(
    url: string,
    options: { method?: string; body?: BodyInit | null; signal?: AbortSignal | null } = {}
) {
    const init: RequestOptions = {
        method: options.method ?? 'GET',
        signal: options.signal ?? undefined,
        ...(typeof options.body === 'string' ? { raw: { text: options.body, type: 'application/json' } } : {}),
    };
    const response = await authRequest(url, init);
    const { status, headers, json } = init.method === 'GET' ? pageLocally(url, response) : response;
    return { status, headers, body: '', json: json as never };
}

const rest = simpleRestProvider('', httpClient);

const isRecord = (json: unknown): json is RaRecord => json !== null && typeof json === 'object' && 'id' in json;

const baseProvider: DataProvider = {
    ...rest,
    supportAbortSignal: true,
    getList: (resource, params) => rest.getList(LIST_PATHS[resource] ?? resource, params),
    getManyReference: (resource, params) => {
        const parent = NESTED[resource]?.[params.target];
        if (!parent) return rest.getManyReference(resource, params);
        return rest.getList(`${parent}/${id(params.id)}/${resource}`, params);
    },
    create: async (resource, params) => {
        const { data } = await rest.create(resource, params);
        return { data: (isRecord(data) ? data : { ...params.data, id: 0 }) as never };
    },
    update: async (resource, params) => {
        const { data } = await rest.update(resource, params);
        return { data: (isRecord(data) ? data : { ...params.previousData, ...params.data, id: params.id }) as never };
    },
    delete: async (resource, params) => {
        const { data } = await rest.delete(resource, params);
        return { data: (isRecord(data) ? data : (params.previousData ?? { id: params.id })) as never };
    },
    deleteMany: async (resource, params) => {
        await Promise.all(params.ids.map((recordId) => baseProvider.delete(resource, { id: recordId })));
        return { data: params.ids };
    },
    updateMany: async (resource, params) => {
        await Promise.all(
            params.ids.map((recordId) =>
                rest.update(resource, { ...params, id: recordId, previousData: { id: recordId } })
            )
        );
        return { data: params.ids };
    },
};

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
}

export type NodeMonitorDataProvider = DataProvider & CustomMethods & HistoryMethods;

/**
 * Calls that are not CRUD on one resource (spec §7's other routes); components reach them through
 * `useNodeMonitorDataProvider()`. A new one goes here, with its line in `CustomMethods` above.
 */
const customMethods: CustomMethods = {
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
    getChains: async () => {
        const json = (await authRequest('/chains')).json;
        if (json && typeof json === 'object' && 'chains' in json && Array.isArray(json.chains)) {
            return json.chains as Chain[];
        }
        return listRecords<Chain>(json);
    },
};

export const dataProvider: NodeMonitorDataProvider = withLifecycleCallbacks(
    { ...baseProvider, ...customMethods, ...historyMethods },
    [
        // The API refuses fields it does not take: what react-admin read (nested refs, dates) is not sent back.
        { resource: '*', beforeSave: async (data, _provider, resource) => toBody(resource, data) },
    ]
);

/** `useDataProvider()` typed with the custom methods. */
export const useNodeMonitorDataProvider = () => useDataProvider<NodeMonitorDataProvider>();
