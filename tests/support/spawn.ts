import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

// Starting the programs the tests talk to (node_exporter, Prometheus, the console) on ports of their own.

export async function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const s = createServer();
        s.listen(0, '127.0.0.1', () => {
            const address = s.address();
            const port = typeof address === 'object' && address ? address.port : 0;
            s.close(() => resolve(port));
        });
        s.on('error', reject);
    });
}

/** What a program that finds its port taken prints before it exits (Node, Go's net package). */
const PORT_TAKEN = /EADDRINUSE|address already in use/;

/** What node_exporter and Prometheus log once they have bound their address. */
export const GO_LISTENING = /msg="Listening on"/;

/**
 * Spawns a program on a port freePort found and waits until it has said `listening` and `ready(port)` is true: a
 * program that answers before this one has bound is not this one. That port is free only until it is closed:
 * another test's listener, or the local end of a loopback connection, can take it first; a program that then exits
 * saying so is started again on another port, up to 5 times.
 */
export async function spawnListening(
    start: (port: number) => ChildProcess,
    listening: RegExp,
    ready: (port: number) => Promise<unknown>,
    timeoutMs = 30_000
): Promise<{ child: ChildProcess; port: number }> {
    for (let attempt = 1; ; attempt++) {
        const port = await freePort();
        const child = start(port);
        const chunks: string[] = [];
        const output = () => chunks.join('');
        const closed = new Promise((resolve) => child.once('close', resolve));
        child.stdout?.on('data', (c: Buffer) => chunks.push(c.toString()));
        child.stderr?.on('data', (c: Buffer) => chunks.push(c.toString()));
        const deadline = Date.now() + timeoutMs;
        for (;;) {
            if (child.exitCode !== null || child.signalCode !== null) {
                await closed;
                if (attempt < 5 && PORT_TAKEN.test(output())) break;
                throw new Error(
                    `${child.spawnfile} exited (${child.exitCode ?? child.signalCode}): ${output().slice(-2000)}`
                );
            }
            if (listening.test(output()) && (await ready(port).catch(() => false))) return { child, port };
            if (Date.now() > deadline) {
                child.kill('SIGKILL');
                throw new Error(`${child.spawnfile} was not ready in ${timeoutMs} ms: ${output().slice(-2000)}`);
            }
            await new Promise((r) => setTimeout(r, 200));
        }
    }
}

/** Debian's node_exporter on a loopback port, once it serves filesystem metrics; `url` is its /metrics. */
export async function startNodeExporter(): Promise<{ child: ChildProcess; url: string }> {
    const { child, port } = await spawnListening(
        (p) =>
            spawn(
                '/usr/bin/prometheus-node-exporter',
                [`--web.listen-address=127.0.0.1:${p}`, '--no-collector.systemd'],
                {
                    stdio: ['ignore', 'pipe', 'pipe'],
                }
            ),
        GO_LISTENING,
        async (p) => {
            const res = await fetch(`http://127.0.0.1:${p}/metrics`);
            return res.ok && (await res.text()).includes('node_filesystem_avail_bytes');
        }
    );
    return { child, url: `http://127.0.0.1:${port}/metrics` };
}
