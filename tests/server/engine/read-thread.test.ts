import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Worker } from 'node:worker_threads';
import pino from 'pino';
import type { MonitorType } from '../../../common/monitor-types';
import type { ServiceType } from '../../../common/service-types';
import { createHttpClient } from '../../../server/clients/http';
import { type ReadRequest, ReadThread, readHere } from '../../../server/engine/readers';
import { type ChainSim, startChainSim } from '../../../tools/chain-sim';

/** The engine reads through a thread of its own (readers.ts): it must read exactly what the check reads here. */
let sim: ChainSim;
let thread: ReadThread;
let hanging: Server;
const errors: string[] = [];
const log = pino({ level: 'error' }, { write: (line: string) => errors.push(JSON.parse(line).msg) });
const here = readHere(createHttpClient({ allowPrivate: false }));
const loopback = { allowedNetworks: ['127.0.0.0/8'] };

beforeAll(async () => {
    sim = await startChainSim({ autoStart: false, oracle: 'kujira', initialBlocks: 5 });
    thread = new ReadThread({ allowPrivate: false }, log);
    await thread.warm();
    // Accepts and never answers: a node that hangs.
    hanging = createServer(() => {});
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
    await thread.close();
    hanging.closeAllConnections();
    await new Promise((r) => hanging.close(r));
    await sim.close();
});

function request(
    type: MonitorType,
    settings: Record<string, unknown>,
    services: Partial<Record<ServiceType, string>> = {},
    policy = loopback
): ReadRequest {
    return {
        monitor: { id: 1, name: `${type} test`, type, settings },
        server: { id: 1, name: 'node-1', address: 'http://127.0.0.1' },
        services: Object.entries(services).map(([t, address]) => ({ type: t as ServiceType, address: address ?? '' })),
        chain: { name: 'kujira', bech32Prefix: 'cosmos' },
        policy,
    };
}

/** What a read ended in, as the engine keeps it; a read's own duration differs from read to read. */
const outcome = (p: Promise<unknown>) =>
    p.then(
        (value) => ({ ok: true, value: JSON.parse(JSON.stringify(value, (k, v) => (k === 'elapsedMs' ? 0 : v))) }),
        (err: Error) => ({ ok: false, error: err.message })
    );
const never = () => new AbortController().signal;
/** What a ReadThread keeps to itself, which these tests look into. */
const inside = (t: ReadThread) => t as unknown as { worker: Worker | null; pending: Map<number, unknown> };
const UNANSWERING = new URL('./fixtures/unanswering-read-thread.mjs', import.meta.url);

describe('the checks’ read thread', () => {
    it('reads every monitor type as the check reads it on the engine’s thread', async () => {
        const node = sim.nodes[0];
        if (!node) throw new Error('no node');
        const valoper = { valoper_address: sim.chain.ours.valoper };
        const rest = { rest: node.restUrl };
        const cases: ReadRequest[] = [
            request('urlCheck', { address: `${node.rpcUrl}/health` }),
            request('urlCheck', { address: `${node.rpcUrl}/no-such-page` }),
            request('blockCheck', {}, { rpc: node.rpcUrl }),
            request('signMissCheck', valoper, { rpc: node.rpcUrl, ...rest }),
            request('priceFeederMissCount', valoper, rest),
            request('nodeExporterDiskSpace', { threshold: 80 }, { node_exporter: node.nodeExporterUrl }),
            request('validatorOutOfActiveSet', valoper, rest),
            request('slashingWindow', valoper, rest),
            request('governanceVote', valoper, rest),
            request('upgradeWatch', {}, rest),
            // A failure crosses as the check's own sentence.
            request('blockCheck', {}, {}),
        ];
        let read = 0;
        for (const req of cases) {
            const expected = await outcome(here(req, never()));
            expect({ type: req.monitor.type, ...(await outcome(thread.read(req, never()))) }).toEqual({
                type: req.monitor.type,
                ...expected,
            });
            if (expected.ok) read++;
        }
        // The simulator serves every type's endpoints: all but the last compare readings, not errors.
        expect(read).toBe(cases.length - 1);
    });

    it('the company’s allowed networks cross with the read', async () => {
        const req = request('urlCheck', { address: `${sim.nodes[0]?.rpcUrl}/health` }, {}, { allowedNetworks: [] });
        const refused = await outcome(thread.read(req, never()));
        expect(refused).toEqual({ ok: false, error: expect.stringMatching(/refused/) });
        expect(refused).toEqual(await outcome(here(req, never())));
    });

    it('a timeout reaches the read in the thread, which words it as the check does', async () => {
        const { port } = hanging.address() as AddressInfo;
        const req = request('urlCheck', { address: `http://127.0.0.1:${port}/health` });
        const timeout = () => AbortSignal.timeout(300);
        const there = await outcome(thread.read(req, timeout()));
        expect(there).toEqual(await outcome(here(req, timeout())));
        expect(there.ok).toBe(false);
    });

    it('a thread that dies fails its reads in flight, and a read a second later starts a new thread', async () => {
        const { port } = hanging.address() as AddressInfo;
        const stuck = outcome(thread.read(request('urlCheck', { address: `http://127.0.0.1:${port}/` }), never()));
        // Wait until the thread has the read, then end it as a crash would.
        await new Promise((r) => setTimeout(r, 200));
        await inside(thread).worker?.terminate();
        expect(await stuck).toEqual({
            ok: false,
            error: 'The check could not run: its read thread stopped (exit code 1)',
        });
        expect(errors).toContain('The checks’ read thread stopped (exit code 1); a new one starts within a second');
        const health = request('urlCheck', { address: `${sim.nodes[0]?.rpcUrl}/health` });
        // Not at once: a thread that cannot load would otherwise be started again for every check.
        expect(await outcome(thread.read(health, never()))).toEqual(await stuck);
        await new Promise((r) => setTimeout(r, 1000));
        expect(await outcome(thread.read(health, never()))).toMatchObject({ ok: true, value: { status: 200 } });
    });

    it('a cancelled read the thread never answers fails after the grace; the thread still answers, so it stays', async () => {
        // The grace is also how long the ping's answer may take: a second, as a loaded CI machine may need.
        const quiet = new ReadThread({ allowPrivate: false }, log, { entry: UNANSWERING, graceMs: 1000 });
        try {
            await quiet.warm();
            const before = inside(quiet).worker;
            const req = request('urlCheck', { address: 'http://127.0.0.1:9/' });
            expect(await outcome(quiet.read(req, AbortSignal.timeout(100)))).toEqual({
                ok: false,
                error: 'The operation was aborted due to timeout',
            });
            expect(inside(quiet).pending.size).toBe(0);
            // Its ping is answered: the thread is kept past the ping's grace.
            await new Promise((r) => setTimeout(r, 1500));
            expect(inside(quiet).worker).toBe(before);
        } finally {
            await quiet.close();
        }
    });

    it('a thread stuck in a loop is ended once its ping goes unanswered too', async () => {
        const stuck = new ReadThread({ allowPrivate: false }, log, { entry: UNANSWERING, graceMs: 200 });
        try {
            await stuck.warm();
            const req = request('urlCheck', { address: 'http://127.0.0.1:9/' }, {}, loopback);
            req.monitor.name = 'loop';
            const logged = errors.length;
            expect(await outcome(stuck.read(req, AbortSignal.timeout(100)))).toEqual({
                ok: false,
                error: 'The operation was aborted due to timeout',
            });
            await expect
                .poll(() => errors.slice(logged), { timeout: 5000 })
                .toEqual([
                    'The checks’ read thread stopped answering; it is ended',
                    'The checks’ read thread stopped (exit code 1); a new one starts within a second',
                ]);
        } finally {
            await stuck.close();
        }
    });

    it('after the engine stopped, a read fails at once and starts no thread', async () => {
        const closed = new ReadThread({ allowPrivate: false }, log);
        await closed.warm();
        await closed.close();
        const health = request('urlCheck', { address: `${sim.nodes[0]?.rpcUrl}/health` });
        expect(await outcome(closed.read(health, never()))).toEqual({ ok: false, error: 'The engine is stopping' });
        expect(inside(closed).worker).toBeNull();
    });

    it('a request that cannot be passed to the thread fails, and is not kept waiting', async () => {
        const req = request('urlCheck', { address: `${sim.nodes[0]?.rpcUrl}/health`, bad: () => 1 });
        expect(await outcome(thread.read(req, never()))).toEqual({
            ok: false,
            error: expect.stringMatching(/^The check could not be passed to its read thread: .*could not be cloned/),
        });
        expect(inside(thread).pending.size).toBe(0);
    });

    it('an idle thread does not keep the process alive', async () => {
        const script = new URL('./fixtures/idle-read-thread.mjs', import.meta.url).pathname;
        const exit = await new Promise<{ code: unknown; stdout: string }>((resolve) => {
            execFile(process.execPath, ['--import', 'tsx', script], { timeout: 20_000 }, (err, stdout) =>
                resolve({ code: err ? (err.code ?? err.signal) : 0, stdout })
            );
        });
        expect(exit).toEqual({ code: 0, stdout: 'warm\n' });
    });
});
