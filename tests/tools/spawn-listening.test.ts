import { spawn } from 'node:child_process';
import { connect, createServer, type Server } from 'node:net';
import { spawnListening } from '../support/spawn';

/** A program that listens on `port` after `delayMs`, answers every connection with "up", and says so once bound. */
const listener = (port: number, delayMs = 0) =>
    spawn(process.execPath, [
        '-e',
        `setTimeout(() => require('node:net').createServer((s) => s.end('up'))
            .listen(${port}, '127.0.0.1', () => console.log('listening on ${port}')), ${delayMs})`,
    ]);
const LISTENING = /listening on/;

const answers = (port: number) =>
    new Promise<boolean>((resolve) => {
        const s = connect(port, '127.0.0.1');
        s.setTimeout(1000, () => s.destroy());
        s.once('data', () => {
            resolve(true);
            s.destroy();
        }).once('close', () => resolve(false));
    });

const servers: Server[] = [];
const listen = async (port: number, answer: boolean) => {
    const s = createServer((c) => (answer ? c.end('up') : undefined));
    servers.push(s);
    await new Promise<void>((r) => s.listen(port, '127.0.0.1', r));
    return (s.address() as { port: number }).port;
};
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

describe('spawnListening', () => {
    it('starts the program again on another port when its port was taken before it bound', async () => {
        const taken = await listen(0, false);
        const ports: number[] = [];
        // The first start is given the port another listener holds, as when one takes freePort's port first.
        const { child, port } = await spawnListening(
            (p) => {
                ports.push(p);
                return listener(ports.length === 1 ? taken : p);
            },
            LISTENING,
            answers
        );
        try {
            expect(ports).toHaveLength(2);
            expect(port).toBe(ports[1]);
            expect(await answers(port)).toBe(true);
        } finally {
            child.kill();
        }
    });

    it('does not take another program’s answer on the port for its own', async () => {
        const ports: number[] = [];
        // Another program answers on the first port before this one binds it (300 ms in).
        const { child, port } = await spawnListening(
            (p) => {
                if (ports.push(p) === 1) void listen(p, true);
                return listener(p, 300);
            },
            LISTENING,
            answers
        );
        try {
            expect(ports).toHaveLength(2);
            expect(port).toBe(ports[1]);
            expect(child.exitCode).toBeNull();
        } finally {
            child.kill();
        }
    });

    it('fails with the program’s own words when it exits for another reason', async () => {
        await expect(
            spawnListening(
                () => spawn(process.execPath, ['-e', 'console.error("bad flag"); process.exit(3)']),
                LISTENING,
                answers
            )
        ).rejects.toThrow(/exited \(3\): bad flag/);
    });
});
