// Tiny shared HTTP server helper on node:http. It parses the request, applies the node's faults for the
// protocol, and lets close() end everything (keep-alive sockets, pending delays) so tests leak no handles.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Fault } from './faults';

export interface SimRequest {
    method: string;
    path: string;
    query: URLSearchParams;
    headers: IncomingMessage['headers'];
    body: string;
}

export interface SimResponse {
    status: number;
    body: string;
    contentType?: string;
    headers?: Record<string, string>;
}

export type Handler = (req: SimRequest) => SimResponse | Promise<SimResponse>;

export interface SimServer {
    port: number;
    baseUrl: string;
    close(): Promise<void>;
}

export const JSON_TYPE = 'application/json';
export const PROM_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const STATUS_TEXT: Record<number, string> = {
    500: 'Internal Server Error',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
    504: 'Gateway Timeout',
};

export function json(status: number, value: unknown, headers?: Record<string, string>): SimResponse {
    return { status, body: JSON.stringify(value), contentType: JSON_TYPE, headers };
}

export async function startServer(
    host: string,
    port: number,
    handler: Handler,
    currentFault: () => Fault | undefined = () => undefined
): Promise<SimServer> {
    const timers = new Set<NodeJS.Timeout>();
    const sleep = (ms: number) =>
        new Promise<void>((resolve) => {
            const t = setTimeout(() => {
                timers.delete(t);
                resolve();
            }, ms);
            timers.add(t);
        });

    const serve = async (req: IncomingMessage, res: ServerResponse) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const url = new URL(req.url ?? '/', 'http://sim');
        const fault = currentFault();
        if (fault?.delayMs) await sleep(fault.delayMs);
        if (res.destroyed) return;
        if (fault?.drop) {
            req.socket.destroy();
            return;
        }
        if (fault?.status) {
            // What an nginx front says when the node behind it is gone.
            const text = `${fault.status} ${STATUS_TEXT[fault.status] ?? 'Error'}`;
            send(res, { status: fault.status, body: `${text}\n`, contentType: 'text/plain; charset=utf-8' });
            return;
        }
        const response = await handler({
            method: req.method ?? 'GET',
            path: url.pathname,
            query: url.searchParams,
            headers: req.headers,
            body: Buffer.concat(chunks).toString('utf8'),
        });
        if (fault?.malformed === 'truncated') {
            response.body = response.body.slice(0, Math.floor(response.body.length / 2));
        } else if (fault?.malformed === 'invalid') {
            response.body =
                response.contentType === JSON_TYPE ? '{"jsonrpc":"2.0",<html>oops' : 'broken_metric{label="x" 1 2 3\n';
        }
        send(res, response);
    };

    const server = createServer((req, res) => {
        serve(req, res).catch((err: unknown) => {
            if (!res.headersSent && !res.destroyed) {
                send(res, { status: 500, body: String(err), contentType: 'text/plain; charset=utf-8' });
            }
        });
    });
    await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
    });
    const actualPort = (server.address() as AddressInfo).port;
    return {
        port: actualPort,
        baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`,
        close: () =>
            new Promise<void>((resolve) => {
                for (const t of timers) clearTimeout(t);
                timers.clear();
                server.close(() => resolve());
                server.closeAllConnections();
            }),
    };
}

function send(res: ServerResponse, response: SimResponse): void {
    if (res.destroyed) return;
    res.writeHead(response.status, {
        'Content-Type': response.contentType ?? JSON_TYPE,
        'Content-Length': Buffer.byteLength(response.body),
        ...response.headers,
    });
    res.end(response.body);
}
