import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider, Identifier, RaRecord } from 'react-admin';
import { useDataProvider, withLifecycleCallbacks } from 'react-admin';

import { toBody } from './bodies';
import { type CustomMethods, customMethods } from './customMethods';
import { type HistoryMethods, historyMethods } from './history';
import type { RequestOptions } from './httpClient';
import { pageLocally } from './listParams';
import { authRequest } from './session';

/**
 * react-admin's simple REST provider (`GET /{res}?sort=&range=&filter=` answered with `Content-Range`, `GET /{res}/{id}`,
 * POST, PUT, DELETE) over the console's HTTP client (session, refresh, docs/spec.md §8's fabricated 500), with overrides only
 * where the spec's API differs:
 * - list answers without `Content-Range` (the spec's bare arrays and `{results: []}`) are paged in the HTTP client
 *   below (`pageLocally`), so every list takes the same path;
 * - nested lists (a configuration's servers, a server's services) come from `/{parent}/{id}/{res}`;
 * - bodies keep only the fields the API accepts (`toBody`, as a lifecycle callback);
 * - a write answered without a record resolves with the record it wrote.
 * Calls that are not CRUD on one resource are in customMethods.ts and history.ts.
 */

/** Resources whose list lives elsewhere than `/{res}`. */
const LIST_PATHS: Record<string, string> = { audit: 'audit/latest' };

/** Nested list endpoints: resource → reference field → parent resource. */
const NESTED: Record<string, Record<string, string>> = {
    servers: { configuration_id: 'configurations' },
    monitors: { configuration_id: 'configurations', server_id: 'servers' },
    services: { server_id: 'servers' },
};

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
const id = (value: Identifier) => encodeURIComponent(String(value));
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
    // One call per record: the API has no bulk routes, and ra-data-simple-rest's own would parse no answer body.
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

export type NodeMonitorDataProvider = DataProvider & CustomMethods & HistoryMethods;

export const dataProvider: NodeMonitorDataProvider = withLifecycleCallbacks(
    { ...baseProvider, ...customMethods, ...historyMethods },
    [
        // The API refuses fields it does not take: what react-admin read (nested refs, dates) is not sent back.
        { resource: '*', beforeSave: async (data, _provider, resource) => toBody(resource, data) },
    ]
);

/** `useDataProvider()` typed with the custom methods. */
export const useNodeMonitorDataProvider = () => useDataProvider<NodeMonitorDataProvider>();
