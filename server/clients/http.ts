import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { allowedNetworks, type EgressPolicy } from './address-guard';
import { guardedLookup, type Resolve, targetRefusal } from './guarded-connect';
import { type Connection, exchange, type Hop, type HopRequest } from './http-exchange';
import { Cancelled, describeStatus, HttpError, Timeout, toHttpError } from './http-errors';
import { redactUrl } from './redact';

export { describeStatus, HttpError, type HttpErrorKind } from './http-errors';
export { redact, redactToken, redactUrl, snippet } from './redact';

/**
 * The one egress HTTP client: every outbound request (checks, service tests, metrics, Telegram, chain
 * directory) goes through it. It allows only http(s), checks every address it connects to (at connect
 * time, through a custom `lookup`, so DNS rebinding is caught), re-checks each redirect hop, enforces one
 * deadline over the whole exchange and reads at most `maxBodyBytes` of a body. Loopback, private and link-local
 * addresses are reached only within the request's `policy` (the company's allowed networks) or when the client
 * allows every private target; without a policy a request gets no private address at all. Bodies are never decompressed
 * (no Accept-Encoding is sent), so a gzip bomb stays a small opaque body. Error messages never carry URL
 * credentials or a Telegram `bot<token>` path segment.
 */

export interface HttpRequestOptions {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Uint8Array;
    signal?: AbortSignal;
    timeoutMs?: number;
    /** Overrides the client's body cap for this request. */
    maxBodyBytes?: number;
    /** Over the cap, stop reading and return the first `maxBodyBytes` (for callers that only need the status). */
    truncateBody?: boolean;
    /**
     * Whom the request is made for: a company's egress policy (its `allowed_networks`). Every request made on
     * behalf of a company must carry it (or go through `withPolicy`); without one no private address is allowed
     * unless the client-wide `allowPrivate` switch is on.
     */
    policy?: EgressPolicy;
}

export interface HttpResponse {
    status: number;
    /** Lower-case names; repeated headers joined with ', '. */
    headers: Record<string, string>;
    text: string;
    /** The final URL after redirects, redacted. */
    url: string;
    /** True when `truncateBody` cut the body at the cap. */
    truncated: boolean;
}

export interface HttpClient {
    request(url: string, opts?: HttpRequestOptions): Promise<HttpResponse>;
    /** GET (unless opts.method says otherwise) and parse JSON; a non-2xx status or invalid JSON throws HttpError. */
    getJson<T = unknown>(url: string, opts?: HttpRequestOptions): Promise<T>;
    /** GET the body as text; a non-2xx status throws HttpError. */
    getText(url: string, opts?: HttpRequestOptions): Promise<string>;
}

export interface HttpClientOptions {
    timeoutMs?: number;
    maxBodyBytes?: number;
    /** Every loopback, private and link-local address allowed, whatever the policy (ALLOW_PRIVATE_TARGETS). */
    allowPrivate?: boolean;
    userAgent?: string;
    /** Name resolution, replaceable in tests (to simulate DNS rebinding). Defaults to dns.lookup. */
    resolve?: Resolve;
}

const MiB = 1024 * 1024;
const MAX_REDIRECTS = 5;

const defaultResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
    const timeoutDefault = options.timeoutMs ?? 10_000;
    const capDefault = options.maxBodyBytes ?? MiB;
    const allowPrivate = options.allowPrivate ?? false;
    const userAgent = options.userAgent ?? 'node-monitor/0.1';
    const resolve = options.resolve ?? defaultResolve;
    // No keep-alive: a reused socket closed by the peer turns into a spurious ECONNRESET, i.e. a false alert.
    const agents = { http: new http.Agent({ keepAlive: false }), https: new https.Agent({ keepAlive: false }) };

    async function request(input: string, opts: HttpRequestOptions = {}): Promise<HttpResponse> {
        let url: URL;
        try {
            url = new URL(input);
        } catch {
            throw new HttpError('invalid_url', redactUrl(input), 'is not a valid URL');
        }
        const timeoutMs = opts.timeoutMs ?? timeoutDefault;
        const limit = { cap: opts.maxBodyBytes ?? capDefault, truncate: opts.truncateBody ?? false };
        const deadline = new AbortController();
        const timer = setTimeout(() => deadline.abort(new Timeout()), timeoutMs);
        const onOuterAbort = () => deadline.abort(new Cancelled());
        if (opts.signal?.aborted) onOuterAbort();
        opts.signal?.addEventListener('abort', onOuterAbort, { once: true });

        const allowed = allowedNetworks(opts.policy);
        const conn: Connection = { userAgent, agents, lookup: guardedLookup(allowPrivate, allowed, resolve) };
        let req: HopRequest = {
            url,
            method: (opts.method ?? 'GET').toUpperCase(),
            headers: { ...(opts.headers ?? {}) },
            body: typeof opts.body === 'string' ? Buffer.from(opts.body, 'utf8') : opts.body,
        };
        try {
            for (let hop = 0; ; hop++) {
                const refused = targetRefusal(req.url, allowPrivate, allowed);
                if (refused) throw new HttpError('refused', redactUrl(req.url), refused);
                let res: Hop;
                try {
                    res = await exchange(req, limit, deadline.signal, conn);
                } catch (err) {
                    throw toHttpError(err, req.url, timeoutMs, limit.cap);
                }
                const next = redirected(req, res, hop);
                if (next) {
                    req = next;
                    continue;
                }
                return {
                    status: res.status,
                    headers: flattenHeaders(res.headers),
                    text: res.body.toString('utf8'),
                    url: redactUrl(req.url),
                    truncated: res.truncated,
                };
            }
        } finally {
            clearTimeout(timer);
            opts.signal?.removeEventListener('abort', onOuterAbort);
        }
    }

    return withReaders(request);
}

/** `getText` and `getJson` over a client's `request`: a non-2xx status (or invalid JSON) throws HttpError. */
function withReaders(request: HttpClient['request']): HttpClient {
    async function getText(url: string, opts: HttpRequestOptions = {}): Promise<string> {
        const res = await request(url, opts);
        if (res.status < 200 || res.status >= 300) {
            throw new HttpError('status', res.url, `answered ${describeStatus(res.status, res.text)}`, res.status);
        }
        return res.text;
    }

    async function getJson<T>(url: string, opts: HttpRequestOptions = {}): Promise<T> {
        const text = await getText(url, { ...opts, headers: { accept: 'application/json', ...(opts.headers ?? {}) } });
        try {
            return JSON.parse(text) as T;
        } catch {
            throw new HttpError(
                'json',
                redactUrl(url),
                `answered with invalid JSON${text ? '' : ' (an empty body)'}`,
                200
            );
        }
    }

    return { request, getJson, getText };
}

/**
 * The next hop when `res` redirects, or null when it is the answer: a 303 (and a 301/302 after a POST) turns into a
 * GET without body, and credentials never follow a redirect to another origin.
 */
function redirected(req: HopRequest, res: Hop, hop: number): HopRequest | null {
    const location = res.headers.location;
    if (res.status < 300 || res.status >= 400 || location === undefined) return null;
    if (hop >= MAX_REDIRECTS) {
        throw new HttpError('redirects', redactUrl(req.url), `redirected more than ${MAX_REDIRECTS} times`);
    }
    let url: URL;
    try {
        url = new URL(location, req.url);
    } catch {
        throw new HttpError('invalid_url', redactUrl(req.url), 'redirected to an invalid URL');
    }
    const toGet = res.status === 303 || ((res.status === 301 || res.status === 302) && req.method === 'POST');
    return {
        url,
        method: toGet ? 'GET' : req.method,
        body: toGet ? undefined : req.body,
        headers: url.origin !== req.url.origin ? withoutCredentials(req.headers) : req.headers,
    };
}

/** The same client with `policy` on every request that does not name its own: hand it to code working for a company. */
export function withPolicy(http: HttpClient, policy: EgressPolicy): HttpClient {
    const scoped = (opts: HttpRequestOptions = {}) => ({ policy, ...opts });
    return {
        request: (url, opts) => http.request(url, scoped(opts)),
        getJson: (url, opts) => http.getJson(url, scoped(opts)),
        getText: (url, opts) => http.getText(url, scoped(opts)),
    };
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) {
        if (!['authorization', 'cookie', 'proxy-authorization'].includes(k.toLowerCase())) out[k] = v;
    }
    return out;
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) {
        if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
    }
    return out;
}
