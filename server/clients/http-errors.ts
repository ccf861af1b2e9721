import http from 'node:http';
import { redact, redactUrl, snippet } from './redact';

const MiB = 1024 * 1024;

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

/** The deadline of the whole exchange passed. */
export class Timeout extends Error {}
/** The caller's signal aborted the request. */
export class Cancelled extends Error {}
/** The body is larger than the request's cap. */
export class TooLarge extends Error {}
/** A name resolved to an address the request's policy refuses; `message` says which. */
export class RefusedAddress extends Error {}

function formatBytes(n: number): string {
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

/** Any failure of one exchange with `url` as the HttpError its caller sees. */
export function toHttpError(err: unknown, url: URL, timeoutMs: number, cap: number): HttpError {
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
