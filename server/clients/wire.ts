import { z } from 'zod';
import { describeStatus, type HttpClient, HttpError, redactUrl } from './http';

/**
 * Helpers shared by the node clients: one error type whose message is an operator sentence, JSON fetching
 * that names the service, and the scalar codecs of the Cosmos wire formats (int64 as strings, RFC3339 with
 * nanoseconds, 18-digit decimals).
 */

/** A failure reading a node; `message` names the service and what to look at, never a stack trace. */
export class NodeError extends Error {
    constructor(message: string) {
        super(message);
        this.name = 'NodeError';
    }
}

/** `http://h:1317/` + `/cosmos/x` → `http://h:1317/cosmos/x`, keeping any path prefix of the base. */
export function joinUrl(base: string, path: string): string {
    return `${base.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

/** Turns an error body of the service into a sentence, or null when it has no recognised shape. */
export type ErrorBodyReader = (body: unknown, status: number) => string | null;

/**
 * Fetches and parses JSON from a node service. Transport failures, non-2xx statuses and invalid JSON all become
 * a NodeError starting with `label` ('RPC service', 'REST service').
 */
export async function fetchJson(
    http: HttpClient,
    label: string,
    url: string,
    signal: AbortSignal | undefined,
    readErrorBody?: ErrorBodyReader
): Promise<unknown> {
    let res: Awaited<ReturnType<HttpClient['request']>>;
    try {
        res = await http.request(url, { signal, headers: { accept: 'application/json' } });
    } catch (err) {
        throw new NodeError(`${label} ${err instanceof HttpError ? err.message : String(err)}`);
    }
    let body: unknown;
    let parsed = true;
    try {
        body = JSON.parse(res.text);
    } catch {
        parsed = false;
    }
    if (res.status < 200 || res.status >= 300) {
        const sentence = parsed && readErrorBody ? readErrorBody(body, res.status) : null;
        throw new NodeError(
            sentence
                ? `${label} ${res.url}: ${sentence}`
                : `${label} ${res.url} answered ${describeStatus(res.status, res.text)}`
        );
    }
    if (!parsed) {
        // The body itself is never quoted: the target may be an internal page (security item 1).
        throw new NodeError(`${label} ${res.url} answered with invalid JSON${res.text ? '' : ' (an empty body)'}`);
    }
    return body;
}

/** Validates a payload; a mismatch names the first bad field instead of crashing later on `undefined`. */
export function parsePayload<T>(schema: z.ZodType<T>, body: unknown, label: string, url: string): T {
    const r = schema.safeParse(body);
    if (r.success) return r.data;
    const issue = r.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'the body';
    throw new NodeError(
        `${label} ${redactUrl(url)} answered an unexpected payload (${where}: ${issue?.message ?? 'invalid'})`
    );
}

/** int64/uint64 as the wire sends them (a decimal string, sometimes a number) → a safe integer. */
export const wireInt = z
    .union([z.string().regex(/^-?\d+$/, 'expected an integer string'), z.number().int()])
    .transform((v, ctx) => {
        const n = Number(v);
        if (!Number.isSafeInteger(n)) {
            ctx.addIssue({ code: 'custom', message: 'integer out of range' });
            return z.NEVER;
        }
        return n;
    });

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|z|[+-]\d{2}:\d{2})$/;

/**
 * RFC3339 with any fractional precision (CometBFT drops trailing zeros: `…57.12519517Z`) → epoch milliseconds.
 * The Go zero time `0001-01-01T00:00:00Z` (absent votes, never jailed) and unparsable text give null.
 */
export function parseRfc3339Ms(text: string | null | undefined): number | null {
    if (!text) return null;
    const m = RFC3339.exec(text);
    if (!m) return null;
    const [, y, mo, d, h, mi, s, frac, zone] = m;
    const year = Number(y);
    if (year <= 1) return null;
    const date = new Date(0);
    // setUTCFullYear, because Date.UTC maps years 0–99 to 19xx.
    date.setUTCFullYear(year, Number(mo) - 1, Number(d));
    date.setUTCHours(Number(h), Number(mi), Number(s), Number((frac ?? '').padEnd(3, '0').slice(0, 3)));
    let ms = date.getTime();
    if (zone && zone.toUpperCase() !== 'Z') {
        const sign = zone.startsWith('-') ? -1 : 1;
        ms -= sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
    }
    return Number.isFinite(ms) ? ms : null;
}

/** An sdk.Dec string (`"0.050000000000000000"`) times an integer, rounded half to even as the SDK does. */
export function decTimesInt(dec: string, n: number): number {
    const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(dec.trim());
    if (!m) return Math.round(Number(dec) * n);
    const frac = m[3] ?? '';
    const scale = 10n ** BigInt(frac.length);
    const value = BigInt(`${m[2]}${frac}`) * BigInt(n);
    let q = value / scale;
    const r = value % scale;
    if (r * 2n > scale || (r * 2n === scale && q % 2n === 1n)) q += 1n;
    return Number(m[1] === '-' ? -q : q);
}
