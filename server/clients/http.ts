import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { type BlockList, isIP, type LookupFunction } from 'node:net';
import { allowedNetworks, type EgressPolicy, refusalReason, refusedHostName } from './address-guard';

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

export type HttpErrorKind =
    | 'invalid_url'
    | 'refused'
    | 'timeout'
    | 'aborted'
    | 'network'
    | 'too_large'
    | 'redirects'
    | 'status'
    | 'json';

/** An egress failure. `message` is `<redacted url> <reason>`, a sentence fit for `last_error`. */
export class HttpError extends Error {
    constructor(
        readonly kind: HttpErrorKind,
        /** Redacted URL. */
        readonly url: string,
        /** What went wrong, without the URL: 'did not answer within 10 s'. */
        readonly reason: string,
        readonly status?: number
    ) {
        super(`${url} ${reason}`);
        this.name = 'HttpError';
    }
}

export interface HttpClientOptions {
    timeoutMs?: number;
    maxBodyBytes?: number;
    /** Every loopback, private and link-local address allowed, whatever the policy (ALLOW_PRIVATE_TARGETS). */
    allowPrivate?: boolean;
    userAgent?: string;
    /** Name resolution, replaceable in tests (to simulate DNS rebinding). Defaults to dns.lookup. */
    resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

const MiB = 1024 * 1024;
const MAX_REDIRECTS = 5;
const SNIPPET_BYTES = 256;

/** Removes credentials and Telegram bot tokens from any text that may hold a URL. */
export function redact(text: string): string {
    return text
        .replace(/\/\/[^/\s@]*@/g, '//')
        .replace(/\/bot[^/?#\s]+/gi, '/bot***')
        .replace(/\b\d{5,}(?::|%3A)[A-Za-z0-9_-]{30,}\b/gi, '***');
}

/**
 * `redact` plus every form of one known bot token a Telegram answer may echo: whole, URL-encoded (`%3A`), or only
 * its secret half (which alone is enough to impersonate the bot together with the public bot id).
 */
export function redactToken(text: string, token: string): string {
    let out = text;
    const half = token.slice(token.indexOf(':') + 1);
    for (const form of [token, encodeURIComponent(token), half, encodeURIComponent(half)]) {
        if (form.length >= 8) out = out.split(form).join('***');
    }
    // Case-insensitive percent-encoding (`%3a`) of the whole token.
    const encoded = token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(':', '(?::|%3A)');
    return redact(out.replace(new RegExp(encoded, 'gi'), '***'));
}

export function redactUrl(url: URL | string): string {
    try {
        const u = new URL(String(url));
        u.username = '';
        u.password = '';
        return redact(u.toString());
    } catch {
        return redact(String(url)).slice(0, 200);
    }
}

/** At most `maxBytes` of `text` (on a character boundary), control characters and runs of whitespace folded. */
export function snippet(text: string, maxBytes = SNIPPET_BYTES): string {
    const flat = redact(text)
        // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
        .replace(/[\u0000-\u001f\u007f]+/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
    const bytes = Buffer.from(flat, 'utf8');
    if (bytes.length <= maxBytes) return flat;
    // Decoding a cut buffer may end in a replacement character; drop it.
    return `${bytes
        .subarray(0, maxBytes - 3)
        .toString('utf8')
        .replace(/\uFFFD$/, '')}…`;
}

export function formatBytes(n: number): string {
    if (n >= MiB && n % MiB === 0) return `${n / MiB} MiB`;
    if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
    return `${n} bytes`;
}

function formatSeconds(ms: number): string {
    const s = ms / 1000;
    return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

const NETWORK_REASONS: Record<string, string> = {
    ECONNREFUSED: 'refused the connection',
    ENOTFOUND: 'could not be resolved (host not found)',
    EAI_AGAIN: 'could not be resolved (DNS lookup failed)',
    ECONNRESET: 'closed the connection before answering',
    EPIPE: 'closed the connection before answering',
    EHOSTUNREACH: 'is unreachable (no route to host)',
    ENETUNREACH: 'is unreachable (network unreachable)',
    HPE_INVALID_CONSTANT: 'did not answer with HTTP',
};

function networkReason(err: NodeJS.ErrnoException): string {
    const code = err.code ?? '';
    const known = NETWORK_REASONS[code];
    if (known) return known;
    if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
        return `presented a TLS certificate that is not trusted (${code})`;
    if (code.startsWith('HPE_')) return `sent a malformed HTTP response (${code})`;
    return `could not be reached (${code || snippet(err.message, 120)})`;
}

class RefusedAddress extends Error {}

function guardedLookup(
    allowPrivate: boolean,
    allowed: BlockList | null,
    resolve: NonNullable<HttpClientOptions['resolve']>
): LookupFunction {
    return (hostname, options, callback) => {
        resolve(hostname).then(
            (all) => {
                const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
                const addrs = wanted ? all.filter((a) => a.family === wanted) : all;
                const first = addrs[0];
                if (!first) {
                    const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
                    err.code = 'ENOTFOUND';
                    callback(err, '', 0);
                    return;
                }
                // Refuse when any answer is refused: a name that mixes public and internal answers is suspect.
                for (const a of addrs) {
                    const why = refusalReason(a.address, allowPrivate, allowed);
                    if (why) {
                        callback(new RefusedAddress(`is refused: ${hostname} resolves to ${why}`), '', 0);
                        return;
                    }
                }
                if (options.all) callback(null, addrs);
                else callback(null, first.address, first.family);
            },
            (err: NodeJS.ErrnoException) => callback(err, '', 0)
        );
    };
}

const defaultResolve = (hostname: string) => dns.promises.lookup(hostname, { all: true, verbatim: true });

interface Hop {
    status: number;
    headers: http.IncomingHttpHeaders;
    body: Buffer;
    truncated: boolean;
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
    const timeoutDefault = options.timeoutMs ?? 10_000;
    const capDefault = options.maxBodyBytes ?? MiB;
    const allowPrivate = options.allowPrivate ?? false;
    const userAgent = options.userAgent ?? 'node-monitor/0.1';
    const resolve = options.resolve ?? defaultResolve;
    // No keep-alive: a reused socket closed by the peer turns into a spurious ECONNRESET, i.e. a false alert.
    const agents = { http: new http.Agent({ keepAlive: false }), https: new https.Agent({ keepAlive: false }) };

    function checkTarget(url: URL, allowed: BlockList | null): string | null {
        if (url.protocol !== 'http:' && url.protocol !== 'https:') {
            return `is refused: only http and https URLs are allowed, not ${url.protocol.replace(':', '')}`;
        }
        const host = url.hostname.replace(/^\[|\]$/g, '');
        const byName = refusedHostName(host);
        if (byName) return `is refused: ${byName}`;
        // An IP literal skips `lookup`, so it is judged here.
        if (isIP(host)) {
            const why = refusalReason(host, allowPrivate, allowed);
            if (why) return `is refused: ${why}`;
        }
        return null;
    }

    function once(
        url: URL,
        method: string,
        headers: Record<string, string>,
        body: Uint8Array | undefined,
        limit: { cap: number; truncate: boolean },
        signal: AbortSignal,
        lookup: LookupFunction
    ): Promise<Hop> {
        const { cap, truncate } = limit;
        return new Promise<Hop>((resolve, reject) => {
            const mod = url.protocol === 'https:' ? https : http;
            const auth =
                url.username || url.password
                    ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
                    : undefined;
            const req = mod.request(url, {
                method,
                headers: {
                    'user-agent': userAgent,
                    ...headers,
                    ...(body ? { 'content-length': String(body.byteLength) } : {}),
                },
                auth,
                lookup,
                agent: url.protocol === 'https:' ? agents.https : agents.http,
            });
            // Settle first: once the response streams, destroying the request does not always surface an error.
            const onAbort = () => {
                const reason = signal.reason instanceof Error ? signal.reason : new Cancelled();
                reject(reason);
                req.destroy(reason);
            };
            if (signal.aborted) onAbort();
            signal.addEventListener('abort', onAbort, { once: true });
            const done = () => signal.removeEventListener('abort', onAbort);
            req.on('error', (err) => {
                done();
                reject(err);
            });
            req.on('response', (res) => {
                const status = res.statusCode ?? 0;
                if (status >= 300 && status < 400 && res.headers.location !== undefined) {
                    // The body of a redirect is never read.
                    done();
                    resolve({ status, headers: res.headers, body: Buffer.alloc(0), truncated: false });
                    res.destroy();
                    return;
                }
                const declared = Number(res.headers['content-length']);
                if (!truncate && Number.isFinite(declared) && declared > cap) {
                    done();
                    reject(new TooLarge());
                    res.destroy();
                    return;
                }
                const chunks: Buffer[] = [];
                let size = 0;
                res.on('data', (chunk: Buffer) => {
                    size += chunk.length;
                    if (size > cap) {
                        // Settle before destroying: destroy() may emit 'aborted' synchronously.
                        done();
                        if (truncate) {
                            chunks.push(chunk.subarray(0, chunk.length - (size - cap)));
                            resolve({ status, headers: res.headers, body: Buffer.concat(chunks), truncated: true });
                        } else {
                            reject(new TooLarge());
                        }
                        res.destroy();
                        return;
                    }
                    chunks.push(chunk);
                });
                res.on('end', () => {
                    done();
                    resolve({ status, headers: res.headers, body: Buffer.concat(chunks), truncated: false });
                });
                res.on('error', (err) => {
                    done();
                    reject(err);
                });
                res.on('aborted', () => {
                    done();
                    reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
                });
            });
            req.end(body);
        });
    }

    async function request(input: string, opts: HttpRequestOptions = {}): Promise<HttpResponse> {
        let url: URL;
        try {
            url = new URL(input);
        } catch {
            throw new HttpError('invalid_url', redactUrl(input), 'is not a valid URL');
        }
        const timeoutMs = opts.timeoutMs ?? timeoutDefault;
        const cap = opts.maxBodyBytes ?? capDefault;
        const deadline = new AbortController();
        const timer = setTimeout(() => deadline.abort(new Timeout()), timeoutMs);
        const onOuterAbort = () => deadline.abort(new Cancelled());
        if (opts.signal?.aborted) onOuterAbort();
        opts.signal?.addEventListener('abort', onOuterAbort, { once: true });

        let method = (opts.method ?? 'GET').toUpperCase();
        let headers = { ...(opts.headers ?? {}) };
        let body = typeof opts.body === 'string' ? Buffer.from(opts.body, 'utf8') : opts.body;
        const allowed = allowedNetworks(opts.policy);
        const lookup = guardedLookup(allowPrivate, allowed, resolve);
        try {
            for (let hop = 0; ; hop++) {
                const refused = checkTarget(url, allowed);
                if (refused) throw new HttpError('refused', redactUrl(url), refused);
                let res: Hop;
                try {
                    res = await once(
                        url,
                        method,
                        headers,
                        body,
                        { cap, truncate: opts.truncateBody ?? false },
                        deadline.signal,
                        lookup
                    );
                } catch (err) {
                    throw toHttpError(err, url, timeoutMs, cap);
                }
                const location = res.headers.location;
                if (res.status >= 300 && res.status < 400 && location !== undefined) {
                    if (hop >= MAX_REDIRECTS) {
                        throw new HttpError('redirects', redactUrl(url), `redirected more than ${MAX_REDIRECTS} times`);
                    }
                    let next: URL;
                    try {
                        next = new URL(location, url);
                    } catch {
                        throw new HttpError('invalid_url', redactUrl(url), 'redirected to an invalid URL');
                    }
                    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
                        method = 'GET';
                        body = undefined;
                    }
                    if (next.origin !== url.origin) headers = withoutCredentials(headers);
                    url = next;
                    continue;
                }
                return {
                    status: res.status,
                    headers: flattenHeaders(res.headers),
                    text: res.body.toString('utf8'),
                    url: redactUrl(url),
                    truncated: res.truncated,
                };
            }
        } finally {
            clearTimeout(timer);
            opts.signal?.removeEventListener('abort', onOuterAbort);
        }
    }

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

/** The same client with `policy` on every request that does not name its own: hand it to code working for a company. */
export function withPolicy(http: HttpClient, policy: EgressPolicy): HttpClient {
    const scoped = (opts: HttpRequestOptions = {}) => ({ policy, ...opts });
    return {
        request: (url, opts) => http.request(url, scoped(opts)),
        getJson: (url, opts) => http.getJson(url, scoped(opts)),
        getText: (url, opts) => http.getText(url, scoped(opts)),
    };
}

/**
 * A target's error answer as users may see it: the status, its standard reason phrase and, from a JSON body, only
 * the error message fields of the known protocols (a gateway's `message`, a JSON-RPC `error.message`). Raw body
 * text is never passed on: a tenant must not read an internal page through an error message.
 */
export function describeStatus(status: number, text: string): string {
    const phrase = http.STATUS_CODES[status];
    const head = `HTTP ${status}${phrase ? ` ${phrase}` : ''}`;
    const message = knownErrorMessage(text);
    return message ? `${head}: ${snippet(message, 200)}` : head;
}

function knownErrorMessage(text: string): string | null {
    if (!/^\s*\{/.test(text)) return null;
    let body: unknown;
    try {
        body = JSON.parse(text);
    } catch {
        return null;
    }
    const b = body as { message?: unknown; error?: unknown };
    if (typeof b.message === 'string' && b.message) return b.message;
    const e = b.error as { message?: unknown } | null | undefined;
    if (e && typeof e === 'object' && typeof e.message === 'string' && e.message) return e.message;
    return null;
}

class Timeout extends Error {}
class Cancelled extends Error {}
class TooLarge extends Error {}

function toHttpError(err: unknown, url: URL, timeoutMs: number, cap: number): HttpError {
    const where = redactUrl(url);
    if (err instanceof HttpError) return err;
    if (err instanceof Timeout)
        return new HttpError('timeout', where, `did not answer within ${formatSeconds(timeoutMs)}`);
    if (err instanceof Cancelled)
        return new HttpError('aborted', where, 'was not answered before the check was cancelled');
    if (err instanceof TooLarge)
        return new HttpError('too_large', where, `failed: Response body exceeds ${formatBytes(cap)}`);
    if (err instanceof RefusedAddress) return new HttpError('refused', where, err.message);
    const e = err instanceof Error ? (err as NodeJS.ErrnoException) : new Error(String(err));
    return new HttpError('network', where, redact(networkReason(e)));
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
