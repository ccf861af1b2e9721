import { vi } from 'vitest';

/** A route of the fake API: `GET /api/companies` → a JSON reply (or a function computing one). */
export interface FakeReply {
    status?: number;
    body?: unknown;
    headers?: Record<string, string>;
}

export type FakeHandler = FakeReply | ((request: RecordedRequest) => FakeReply | Promise<FakeReply>);

export interface RecordedRequest {
    method: string;
    /** Path with query, without the origin, e.g. `/api/companies?range=[0,24]`. */
    url: string;
    path: string;
    /** The query string's parameters, undecoded JSON values included (`filter`, `range`, `sort`). */
    query: URLSearchParams;
    headers: Headers;
    body: unknown;
}

/** JSON bodies arrive parsed; others (a YAML document) as their text. */
function parseOrText(text: string): unknown {
    try {
        return JSON.parse(text);
    } catch {
        return text;
    }
}

/**
 * Stubs global fetch with a route table keyed by `METHOD /path` (query ignored). Unmatched calls answer 404.
 * A handler `'network'` makes fetch reject like an unreachable server.
 */
export function stubApi(routes: Record<string, FakeHandler | 'network'>) {
    const calls: RecordedRequest[] = [];
    const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        const relative = url.replace(/^https?:\/\/[^/]+/, '');
        const path = decodeURIComponent(relative.split('?')[0]);
        const method = (init.method ?? 'GET').toUpperCase();
        const request: RecordedRequest = {
            method,
            url: decodeURIComponent(relative),
            path,
            query: new URLSearchParams(relative.split('?')[1] ?? ''),
            headers: new Headers(init.headers),
            body: typeof init.body === 'string' ? parseOrText(init.body) : undefined,
        };
        calls.push(request);
        const handler = routes[`${method} ${path}`];
        if (handler === 'network') throw new TypeError('Failed to fetch');
        const reply = handler === undefined ? { status: 404, body: { message: 'Not found' } } : handler;
        const { status = 200, body, headers = {} } = typeof reply === 'function' ? await reply(request) : reply;
        const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
        return new Response(status === 204 ? null : text, {
            status,
            headers: { 'Content-Type': 'application/json', ...headers },
        });
    });
    vi.stubGlobal('fetch', fetchMock);
    return { calls, fetchMock };
}

/** react-admin's list parameters of a request (`sort`, `range`, `filter`), parsed; absent ones are null/empty. */
export function listParamsOf(request: RecordedRequest) {
    const read = <T>(name: string): T | null => {
        const value = request.query.get(name);
        return value === null ? null : (JSON.parse(value) as T);
    };
    return {
        sort: read<[string, 'ASC' | 'DESC']>('sort'),
        range: read<[number, number]>('range'),
        filter: read<Record<string, unknown>>('filter') ?? {},
    };
}

/**
 * A list answered as the server answers it (server/list-query.ts): each filter key kept by its predicate (an unknown
 * key is a 400), sorted case-insensitively by the named field then id, cut to `range` with `Content-Range`.
 */
export function pagedReply<T extends { id: number }>(
    resource: string,
    rows: T[],
    request: RecordedRequest,
    filters: Record<string, (row: T, value: unknown) => boolean>
): FakeReply {
    const { sort, range, filter } = listParamsOf(request);
    let kept = rows;
    for (const [name, value] of Object.entries(filter)) {
        const matches = filters[name];
        if (!matches)
            return { status: 400, body: { message: 'Invalid', errors: { filter: `Cannot filter on ${name}` } } };
        if (value !== '' && value !== null && value !== undefined) kept = kept.filter((row) => matches(row, value));
    }
    if (sort) {
        const [field, order] = sort;
        const key = (row: T) => String((row as Record<string, unknown>)[field] ?? '').toLowerCase();
        const direction = order === 'ASC' ? 1 : -1;
        kept = [...kept].sort((a, b) => direction * (key(a).localeCompare(key(b)) || a.id - b.id));
    }
    if (!range) return { body: kept };
    const [first, last] = range;
    const page = kept.slice(first, last + 1);
    const end = page.length ? first + page.length - 1 : first;
    return { body: page, headers: { 'Content-Range': `${resource} ${first}-${end}/${kept.length}` } };
}

export const inOneHour = () => new Date(Date.now() + 3600_000).toISOString();
export const anHourAgo = () => new Date(Date.now() - 3600_000).toISOString();

/** Stores a valid session as a signed-in browser would have it. */
export function storeSession(accessExpiresAt = inOneHour(), refreshExpiresAt = inOneHour()) {
    localStorage.setItem(
        'securityTokens',
        JSON.stringify({
            accessToken: 'access-1',
            accessTokenExpiresAt: accessExpiresAt,
            refreshToken: 'refresh-1',
            refreshTokenExpiresAt: refreshExpiresAt,
        })
    );
}

export const superAdmin = {
    id: 1,
    username: 'admin',
    is_active: true,
    is_admin: true,
    is_super_admin: true,
    company: { id: 1, name: 'Acme' },
    company_id: 1,
    created_at: '2024-01-01T10:00:00.000Z',
    updated_at: '2024-01-02T10:00:00.000Z',
};

/** `POST /api/logs/ticket` as the server answers it: a single-use ticket, here named after the token it was bought with. */
export const logTicket: Record<string, FakeHandler> = {
    'POST /api/logs/ticket': (request) => ({
        body: {
            ticket: `ticket-for-${request.headers.get('Authorization')?.replace('Bearer ', '')}`,
            expiresAt: inOneHour(),
        },
    }),
};
