import type { IncidentStats } from '../../common/incidents';
import type { ValidatorCard } from '../../common/validator-card';
import type {
    CreateParams,
    DataProvider,
    DeleteManyParams,
    DeleteParams,
    GetListParams,
    GetManyParams,
    GetManyReferenceParams,
    GetOneParams,
    Identifier,
    RaRecord,
    UpdateManyParams,
    UpdateParams,
} from 'react-admin';
import { useDataProvider } from 'react-admin';

import type {
    AuditEntry,
    Chain,
    ChannelLink,
    LinkRouting,
    Monitor,
    NotificationChannel,
    Server,
    ServerMetrics,
    Service,
    User,
} from '../../common/entities';
import { type HistoryMethods, historyMethods } from './history';
import type { HttpResponse, RequestOptions } from './httpClient';
import { request } from './httpClient';
import { type LogEventCallback, logRealtime } from './logSocket';
import { authRequest, getAccessToken } from './session';

/**
 * react-admin method → API call (spec §7):
 *
 * | method           | call                                                                    |
 * |------------------|-------------------------------------------------------------------------|
 * | getList          | GET /{res} (companies, users: ?sort=&range=&filter=, Content-Range)      |
 * | getOne           | GET /{res}/{id}                                                          |
 * | getMany          | GET /{res}, kept to the ids asked for                                    |
 * | getManyReference | GET /{parent}/{id}/{res} when nested (servers, monitors, services)       |
 * | create           | POST /{res} with the resource's body fields                              |
 * | update           | PUT /{res}/{id} with the same fields                                     |
 * | delete           | DELETE /{res}/{id}                                                       |
 *
 * List answers are an array or `{results: []}`; when no Content-Range says otherwise, sorting, filtering
 * and paging happen here.
 */

/** Resources whose list endpoint understands react-admin's sort/range/filter query. */
const SERVER_PAGED = new Set(['companies', 'users', 'incidents']);

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

/** The records of a list answer: a bare array or `{results: []}`. */
export function listRecords<T = RaRecord>(json: unknown): T[] {
    if (Array.isArray(json)) return json as T[];
    if (json && typeof json === 'object' && 'results' in json && Array.isArray(json.results)) {
        return json.results as T[];
    }
    return [];
}

/** `companies 0-24/57` → 57; null when absent or unreadable. */
export function totalFromContentRange(header: string | null): number | null {
    const match = header?.match(/\/(\d+)\s*$/);
    return match ? Number(match[1]) : null;
}

function fieldValue(record: Record<string, unknown>, path: string): unknown {
    let value: unknown = record;
    for (const part of path.split('.')) {
        if (value === null || typeof value !== 'object') return undefined;
        value = (value as Record<string, unknown>)[part];
    }
    return value;
}

function matchesQuery(value: unknown, q: string): boolean {
    if (value === null || value === undefined) return false;
    if (typeof value === 'object') return Object.values(value).some((inner) => matchesQuery(inner, q));
    return String(value).toLowerCase().includes(q);
}

function compare(a: unknown, b: unknown): number {
    if (a === b) return 0;
    if (a === null || a === undefined) return 1;
    if (b === null || b === undefined) return -1;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
    return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

/** Client-side filter (`q` searches every field; other keys match equal values), sort and page. */
export function applyListParams<T extends Record<string, unknown>>(
    records: T[],
    params: Partial<Pick<GetListParams, 'filter' | 'sort' | 'pagination'>>
): { data: T[]; total: number } {
    let rows = records;
    for (const [key, wanted] of Object.entries(params.filter ?? {})) {
        if (wanted === undefined || wanted === null || wanted === '') continue;
        if (key === 'q') {
            const q = String(wanted).toLowerCase();
            rows = rows.filter((row) => matchesQuery(row, q));
        } else if (Array.isArray(wanted)) {
            rows = rows.filter((row) => wanted.map(String).includes(String(fieldValue(row, key))));
        } else {
            rows = rows.filter((row) => String(fieldValue(row, key)) === String(wanted));
        }
    }
    const sort = params.sort;
    if (sort?.field) {
        const direction = sort.order === 'DESC' ? -1 : 1;
        rows = [...rows].sort((a, b) => direction * compare(fieldValue(a, sort.field), fieldValue(b, sort.field)));
    }
    const total = rows.length;
    const page = params.pagination;
    if (page && page.perPage > 0) {
        const start = (page.page - 1) * page.perPage;
        rows = rows.slice(start, start + page.perPage);
    }
    return { data: rows, total };
}

function listQuery(resource: string, params: Partial<GetListParams>): Record<string, string> | undefined {
    if (!SERVER_PAGED.has(resource)) return undefined;
    const query: Record<string, string> = {};
    if (params.sort?.field) query.sort = JSON.stringify([params.sort.field, params.sort.order]);
    if (params.pagination) {
        const { page, perPage } = params.pagination;
        query.range = JSON.stringify([(page - 1) * perPage, page * perPage - 1]);
    }
    if (params.filter && Object.keys(params.filter).length > 0) query.filter = JSON.stringify(params.filter);
    return query;
}

async function fetchList(path: string, resource: string, params: Partial<GetListParams>) {
    const response = await authRequest(path, { query: listQuery(resource, params), signal: params.signal });
    const records = listRecords<RaRecord>(response.json);
    const total = totalFromContentRange(response.headers.get('Content-Range'));
    if (total !== null) return { data: records, total };
    return applyListParams(records, params);
}

const id = (value: Identifier) => encodeURIComponent(String(value));

async function getJson<T>(path: string, options?: RequestOptions): Promise<T> {
    return (await authRequest<T>(path, options)).json as T;
}

async function getArray<T>(path: string): Promise<T[]> {
    return listRecords<T>((await authRequest(path)).json);
}

export interface AuditPageParams {
    /** 0-based index of the first entry. */
    start: number;
    /** 0-based index of the last entry (inclusive). */
    end: number;
    monitorId?: Identifier;
    /** Parts of the configuration, server and monitor names and of the message (the audit page's filters). */
    text?: AuditTextFilter;
}

export interface AuditTextFilter {
    configuration?: string;
    server?: string;
    monitor?: string;
    q?: string;
}

/** Calls that are not CRUD on one resource; components reach them through `useNodeMonitorDataProvider()`. */
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
    getCurrentUser(): Promise<User>;
    getConfigurationServers(configurationId: Identifier): Promise<Server[]>;
    getConfigurationMonitors(configurationId: Identifier): Promise<Monitor[]>;
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
    getServerMonitors(serverId: Identifier): Promise<Monitor[]>;
    getServerServices(serverId: Identifier): Promise<Service[]>;
    getServerMetrics(serverId: Identifier): Promise<ServerMetrics>;
    /** GET /services/{id}/test; resolves to the HTTP status (only the status is read, 200 = success). */
    testService(serviceId: Identifier): Promise<number>;
    /** The same probe with the API's `message`, which says why a service did not answer. */
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
    getLatestAudit(): Promise<AuditEntry[]>;
    /** One page of GET /audit/latest (newest first), optionally narrowed to one monitor; total from Content-Range. */
    getAuditPage(params: AuditPageParams): Promise<{ data: AuditEntry[]; total: number }>;
    /** Realtime (react-admin convention): the `logs` topic streams the server's log lines (see logSocket.ts). */
    subscribe(topic: string, callback: LogEventCallback): Promise<{ data: null }>;
    unsubscribe(topic: string, callback: LogEventCallback): Promise<{ data: null }>;
    /** Chain names for the configuration form (GET /chains: the server's cached proxy of the chain directory). */
    getChains(): Promise<Chain[]>;
    /** GET /incidents/stats: MTTA and MTTR over the incidents the list's `filter` matches. */
    getIncidentStats(filter: Record<string, unknown>): Promise<IncidentStats>;
}

export type NodeMonitorDataProvider = DataProvider & CustomMethods & HistoryMethods;

export const dataProvider: NodeMonitorDataProvider = {
    supportAbortSignal: true,

    getList: (resource: string, params: GetListParams) => fetchList(`/${resource}`, resource, params) as never,

    getOne: async (resource: string, params: GetOneParams) => ({
        data: await getJson(`/${resource}/${id(params.id)}`, { signal: params.signal }),
    }),

    getMany: async (resource: string, params: GetManyParams) => {
        const wanted = new Set(params.ids.map(String));
        const { data } = await fetchList(`/${resource}`, resource, { signal: params.signal });
        return { data: data.filter((record) => wanted.has(String(record.id))) as never };
    },

    getManyReference: async (resource: string, params: GetManyReferenceParams) => {
        const parent = NESTED[resource]?.[params.target];
        if (parent) {
            const response = await authRequest(`/${parent}/${id(params.id)}/${resource}`, { signal: params.signal });
            return applyListParams(listRecords<RaRecord>(response.json), params) as never;
        }
        return fetchList(`/${resource}`, resource, {
            ...params,
            filter: { ...params.filter, [params.target]: params.id },
        }) as never;
    },

    create: async (resource: string, params: CreateParams) => {
        const { json } = await authRequest<RaRecord>(`/${resource}`, {
            method: 'POST',
            body: toBody(resource, params.data),
        });
        return { data: (json ?? { ...params.data, id: 0 }) as never };
    },

    update: async (resource: string, params: UpdateParams) => {
        const { json } = await authRequest<RaRecord>(`/${resource}/${id(params.id)}`, {
            method: 'PUT',
            body: toBody(resource, params.data),
        });
        return { data: (json ?? { ...params.previousData, ...params.data, id: params.id }) as never };
    },

    updateMany: async (resource: string, params: UpdateManyParams) => {
        await Promise.all(
            params.ids.map((recordId) =>
                authRequest(`/${resource}/${id(recordId)}`, { method: 'PUT', body: toBody(resource, params.data) })
            )
        );
        return { data: params.ids };
    },

    delete: async (resource: string, params: DeleteParams) => {
        const { json } = await authRequest<RaRecord>(`/${resource}/${id(params.id)}`, { method: 'DELETE' });
        const data =
            json && typeof json === 'object' && 'id' in json ? json : (params.previousData ?? { id: params.id });
        return { data: data as never };
    },

    deleteMany: async (resource: string, params: DeleteManyParams) => {
        await Promise.all(
            params.ids.map((recordId) => authRequest(`/${resource}/${id(recordId)}`, { method: 'DELETE' }))
        );
        return { data: params.ids };
    },

    getCurrentUser: () => getJson<User>('/users/me'),
    getConfigurationServers: (configurationId) => getArray<Server>(`/configurations/${id(configurationId)}/servers`),
    getConfigurationMonitors: (configurationId) => getArray<Monitor>(`/configurations/${id(configurationId)}/monitors`),
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
    getServerMonitors: (serverId) => getArray<Monitor>(`/servers/${id(serverId)}/monitors`),
    getServerServices: (serverId) => getArray<Service>(`/servers/${id(serverId)}/services`),
    getServerMetrics: (serverId) => getJson<ServerMetrics>(`/servers/${id(serverId)}/metrics`),
    testService: async (serviceId) => (await dataProvider.probeService(serviceId)).status,
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
    getLatestAudit: () => getArray<AuditEntry>('/audit/latest'),
    getAuditPage: async ({ start, end, monitorId, text }) => {
        const query: Record<string, string> = { range: JSON.stringify([start, end]) };
        const filter: Record<string, string | number> = {};
        for (const [key, value] of Object.entries(text ?? {})) if (value?.trim()) filter[key] = value.trim();
        if (monitorId !== undefined) filter.monitor_id = Number(monitorId);
        if (Object.keys(filter).length) query.filter = JSON.stringify(filter);
        const response = await authRequest('/audit/latest', { query });
        const data = listRecords<AuditEntry>(response.json);
        return { data, total: totalFromContentRange(response.headers.get('Content-Range')) ?? start + data.length };
    },
    getIncidentStats: (filter) => getJson('/incidents/stats', { query: { filter: JSON.stringify(filter) } }),
    ...historyMethods,
    subscribe: logRealtime.subscribe,
    unsubscribe: logRealtime.unsubscribe,
    getHealth: async () => (await request<ServerHealth>('/health')).json ?? { status: 'unavailable' },
    getChains: async () => {
        const json = (await authRequest('/chains')).json;
        if (json && typeof json === 'object' && 'chains' in json && Array.isArray(json.chains)) {
            return json.chains as Chain[];
        }
        return listRecords<Chain>(json);
    },
};

/** `useDataProvider()` typed with the custom methods. */
export const useNodeMonitorDataProvider = () => useDataProvider<NodeMonitorDataProvider>();
