import type { GetListParams } from 'react-admin';

import type { HttpResponse } from './httpClient';

/** The records of a list answer: a bare array or `{results: []}`. */
export function listRecords<T = unknown>(json: unknown): T[] {
    if (Array.isArray(json)) return json as T[];
    if (json && typeof json === 'object' && 'results' in json && Array.isArray(json.results)) {
        return json.results as T[];
    }
    return [];
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

/**
 * react-admin's list parameters applied to a whole array, for endpoints the spec gives as bare arrays: `q` searches
 * every field, other keys match equal values (or one of a list, as getMany asks), then sort and page.
 */
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

const LIST_PARAMS = ['sort', 'range', 'filter'];

/**
 * A GET list answer without `Content-Range` (a server or endpoint that answers the whole array): sorted, filtered
 * and paged here by the request's own parameters, with the `Content-Range` the server would have sent.
 */
export function pageLocally(url: string, response: HttpResponse): HttpResponse {
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
