import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Cancelled, TooLarge } from './http-errors';

/** One hop of a request: where to and how (a redirect changes them for the next hop). */
export interface HopRequest {
    url: URL;
    method: string;
    headers: Record<string, string>;
    body: Uint8Array | undefined;
}

/** One hop's answer; the body of a redirect is never read. */
export interface Hop {
    status: number;
    headers: http.IncomingHttpHeaders;
    body: Buffer;
    truncated: boolean;
}

/** How the client connects: its user agent, its guarded `lookup` and its agents. */
export interface Connection {
    userAgent: string;
    lookup: LookupFunction;
    agents: { http: http.Agent; https: https.Agent };
}

/** The most of a body that is read; over it, either the exchange fails or (`truncate`) the body is cut. */
export interface BodyLimit {
    cap: number;
    truncate: boolean;
}

/** Sends one request and reads its answer within `limit`; `signal` ends it (the deadline, or the caller). */
export function exchange(req: HopRequest, limit: BodyLimit, signal: AbortSignal, conn: Connection): Promise<Hop> {
    return new Promise<Hop>((resolve, reject) => {
        const { url, body } = req;
        const auth =
            url.username || url.password
                ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
                : undefined;
        const outgoing = (url.protocol === 'https:' ? https : http).request(url, {
            method: req.method,
            headers: {
                'user-agent': conn.userAgent,
                ...req.headers,
                ...(body ? { 'content-length': String(body.byteLength) } : {}),
            },
            auth,
            lookup: conn.lookup,
            agent: url.protocol === 'https:' ? conn.agents.https : conn.agents.http,
        });
        // Settle first: once the response streams, destroying the request does not always surface an error.
        const onAbort = () => {
            const reason = signal.reason instanceof Error ? signal.reason : new Cancelled();
            reject(reason);
            outgoing.destroy(reason);
        };
        if (signal.aborted) onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        const settled = {
            ok: (hop: Hop) => {
                signal.removeEventListener('abort', onAbort);
                resolve(hop);
            },
            fail: (err: unknown) => {
                signal.removeEventListener('abort', onAbort);
                reject(err);
            },
        };
        outgoing.on('error', settled.fail);
        outgoing.on('response', (res) => readAnswer(res, limit, settled));
        outgoing.end(body);
    });
}

function readAnswer(
    res: http.IncomingMessage,
    { cap, truncate }: BodyLimit,
    settled: { ok: (hop: Hop) => void; fail: (err: unknown) => void }
): void {
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location !== undefined) {
        settled.ok({ status, headers: res.headers, body: Buffer.alloc(0), truncated: false });
        res.destroy();
        return;
    }
    const declared = Number(res.headers['content-length']);
    if (!truncate && Number.isFinite(declared) && declared > cap) {
        settled.fail(new TooLarge());
        res.destroy();
        return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > cap) {
            // Settle before destroying: destroy() may emit 'aborted' synchronously.
            if (truncate) {
                chunks.push(chunk.subarray(0, chunk.length - (size - cap)));
                settled.ok({ status, headers: res.headers, body: Buffer.concat(chunks), truncated: true });
            } else {
                settled.fail(new TooLarge());
            }
            res.destroy();
            return;
        }
        chunks.push(chunk);
    });
    res.on('end', () => settled.ok({ status, headers: res.headers, body: Buffer.concat(chunks), truncated: false }));
    res.on('error', settled.fail);
    res.on('aborted', () => settled.fail(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
}
