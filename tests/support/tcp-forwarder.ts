import { once } from 'node:events';
import { createConnection, createServer, type Socket } from 'node:net';

/** What the forwarder does with a connection: pass it on, close it at once (refused), or hold it unanswered. */
export type Admit = 'forward' | 'drop' | 'hold';

export interface TcpForwarder {
    host: string;
    port: number;
    /** Ends every connection it holds or forwards, and stops listening. */
    close(): Promise<void>;
}

/**
 * Listens on `host` (loopback unless given) and pipes each connection to `target`, or drops or holds it as `admit`
 * says at that moment: a test stands it between a process and a dependency to cut or black-hole the way between
 * them, or to reach a dependency that listens where the process cannot.
 */
export async function startTcpForwarder(
    target: { host: string; port: number },
    options: { host?: string; admit?: () => Admit } = {}
): Promise<TcpForwarder> {
    const sockets = new Set<Socket>();
    const track = (s: Socket) => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
    };
    const server = createServer((client) => {
        const admit = options.admit?.() ?? 'forward';
        if (admit === 'drop') {
            client.destroy();
            return;
        }
        track(client);
        if (admit === 'hold') {
            client.on('error', () => client.destroy());
            return;
        }
        const upstream = createConnection(target);
        track(upstream);
        for (const s of [client, upstream])
            s.on('error', () => {
                client.destroy();
                upstream.destroy();
            });
        client.pipe(upstream).pipe(client);
    });
    const host = options.host ?? '127.0.0.1';
    server.listen(0, host);
    await once(server, 'listening');
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return {
        host,
        port: address.port,
        close: () =>
            new Promise<void>((resolve) => {
                for (const s of sockets) s.destroy();
                server.close(() => resolve());
            }),
    };
}
