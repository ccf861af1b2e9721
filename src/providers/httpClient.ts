import { HttpError } from 'react-admin';

import { getConfig } from './config';

export interface HttpResponse<T = unknown> {
    status: number;
    /** True for a 2xx status. */
    ok: boolean;
    headers: Headers;
    /** Parsed JSON body, or null when the body is empty or not JSON (docs/spec.md §8). */
    json: T | null;
    /** Set on the fabricated response of a network failure. */
    networkError?: boolean;
}

export interface RequestOptions {
    method?: string;
    /** Serialised as JSON when present. */
    body?: unknown;
    /** A body sent as it is, with its own content type (a YAML document). */
    raw?: { text: string; type: string };
    /** Sent as `Authorization: Bearer <token>`. */
    token?: string | null;
    query?: Record<string, string>;
    signal?: AbortSignal;
}

export const UNRESPONSIVE_MESSAGE = 'The server is unresponsive';

/** `/companies` → `<apiUrl>/companies?...`; absolute URLs are left alone. */
export function apiUrl(path: string, query?: Record<string, string>): string {
    const base = /^https?:\/\//.test(path) ? path : `${getConfig('apiUrl').replace(/\/+$/, '')}${path}`;
    const search = query ? new URLSearchParams(query).toString() : '';
    return search ? `${base}${base.includes('?') ? '&' : '?'}${search}` : base;
}

function parseJson(text: string): unknown {
    if (!text) return null;
    try {
        return JSON.parse(text);
    } catch {
        return null;
    }
}

/**
 * One HTTP call that never rejects on an HTTP status: a network failure becomes the fabricated
 * 500 of docs/spec.md §8 (`{code, message, description}`). Only an abort (a cancelled query) rejects.
 */
export async function request<T = unknown>(path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    const headers = new Headers({ Accept: 'application/json' });
    if (options.body !== undefined) headers.set('Content-Type', 'application/json');
    if (options.raw) headers.set('Content-Type', options.raw.type);
    if (options.token) headers.set('Authorization', `Bearer ${options.token}`);
    const url = apiUrl(path, options.query);
    let response: Response;
    try {
        response = await fetch(url, {
            method: options.method ?? 'GET',
            headers,
            body: options.raw
                ? options.raw.text
                : options.body === undefined
                  ? undefined
                  : JSON.stringify(options.body),
            signal: options.signal,
        });
    } catch (error) {
        if (options.signal?.aborted) throw error;
        return {
            status: 500,
            ok: false,
            networkError: true,
            headers: new Headers(),
            json: {
                code: 500,
                message: UNRESPONSIVE_MESSAGE,
                description: error instanceof Error ? error.message : String(error),
            } as T,
        };
    }
    const text = await response.text().catch(() => '');
    return {
        status: response.status,
        ok: response.status >= 200 && response.status < 300,
        headers: response.headers,
        json: parseJson(text) as T | null,
    };
}

/** The server's sentence from an error body, if any. */
export function messageOf(json: unknown): string | undefined {
    if (json && typeof json === 'object' && 'message' in json && typeof json.message === 'string' && json.message) {
        return json.message;
    }
    return undefined;
}

/**
 * Raises react-admin's HttpError for a non-2xx response, carrying the server's `message` and the whole
 * body, so `body.errors.{field}` reaches the form (react-admin docs/Validation.md).
 */
export function assertOk<T>(response: HttpResponse<T>): HttpResponse<T> {
    if (response.ok) return response;
    const message = messageOf(response.json) ?? `HTTP error ${response.status}`;
    throw new HttpError(message, response.status, response.json);
}

/** `request` + `assertOk`. */
export async function httpClient<T = unknown>(path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    return assertOk(await request<T>(path, options));
}
