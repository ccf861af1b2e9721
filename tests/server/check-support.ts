import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

export function fixture(name: string): string {
    return readFileSync(path.join(FIXTURES, name), 'utf8');
}

export function fixtureJson<T = unknown>(name: string): T {
    return JSON.parse(fixture(name)) as T;
}

export interface Loopback {
    url: string;
    close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 with a random port. */
export async function startLoopback(handler: http.RequestListener): Promise<Loopback> {
    const server = http.createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
        url: `http://127.0.0.1:${port}`,
        close: () =>
            new Promise<void>((resolve) => {
                server.closeAllConnections();
                server.close(() => resolve());
            }),
    };
}

/** Routes by path (query ignored unless the key has one); unknown paths answer 404. */
export function routes(
    table: Record<string, { status?: number; body: string; type?: string } | string>
): http.RequestListener {
    return (req, res) => {
        const full = req.url ?? '/';
        const entry = table[full] ?? table[full.split('?')[0] ?? ''];
        if (entry === undefined) {
            res.writeHead(404, { 'content-type': 'text/plain' });
            res.end('404 page not found');
            return;
        }
        const e = typeof entry === 'string' ? { body: entry } : entry;
        res.writeHead(e.status ?? 200, { 'content-type': e.type ?? 'application/json' });
        res.end(e.body);
    };
}

/** A port nothing listens on. */
export async function closedPortUrl(): Promise<string> {
    const lb = await startLoopback(() => undefined);
    await lb.close();
    return lb.url;
}
