import { type ChainSim, startChainSim } from '../../tools/chain-sim';
import { outbox } from '../../server/db/schema';
import { type Loopback, startLoopback } from './check-support';
import { createTestApp, seedCompany, type TestApp } from './helpers';
import { seedNode, waitFor } from './seed';

// The watcher watched: the heartbeat goes out only while checks run and notifications leave, and /api/health
// turns to 503 when they do not.
let sim: ChainSim;
let receiver: Loopback;
let beats = 0;
let t: TestApp;

beforeAll(async () => {
    sim = await startChainSim({ blockTimeMs: 200 });
    receiver = await startLoopback((_req, res) => {
        beats++;
        res.end('OK');
    });
});
afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
    await receiver.close();
    await sim.close();
});

async function start() {
    await t?.close();
    t = await createTestApp({
        engineEnabled: true,
        heartbeatUrl: `${receiver.url}/ping/abc`,
        heartbeatIntervalSeconds: 1,
    });
    const companyId = await seedCompany(t.app, 'Acme');
    await seedNode(t.app, {
        companyId,
        services: [{ type: 'rpc', address: sim.nodes[0]?.rpcUrl ?? '' }],
        monitor: { type: 'blockCheck', settings: { sleep_duration_seconds: 1 } },
    });
}
const health = async () => {
    const res = await t.app.inject({ url: '/api/health' });
    return { status: res.statusCode, body: res.json() };
};

describe('watchdog', () => {
    it('beats while the engine is healthy and reports its figures on /api/health', { timeout: 60_000 }, async () => {
        await start();
        const from = beats;
        await waitFor('two heartbeats', () => beats >= from + 2);
        const { status, body } = await health();
        expect(status).toBe(200);
        expect(body).toMatchObject({ status: 'ok', engine: { outbox_backlog: 0, oldest_undelivered_seconds: null } });
        expect(typeof body.engine.lag_p99_ms).toBe('number');
    });

    it('stops beating and answers 503 once the engine stops', { timeout: 60_000 }, async () => {
        await t.app.ctx.engine?.stop();
        await new Promise((r) => setTimeout(r, 1200));
        const after = beats;
        await new Promise((r) => setTimeout(r, 2500));
        expect(beats).toBe(after);
        expect(await health()).toEqual({
            status: 503,
            body: expect.objectContaining({ status: 'unavailable', message: 'The monitoring engine is not running' }),
        });
    });

    it('answers 503 when no check has started for two minutes', { timeout: 60_000 }, async () => {
        await start();
        await waitFor('a check', () => (t.app.ctx.engine?.stats.scheduler.started ?? 0) > 0);
        expect((await health()).status).toBe(200);
        // The engine is frozen: it runs, but its count of started checks no longer moves.
        const engine = t.app.ctx.engine;
        if (!engine) throw new Error('no engine');
        const frozen = structuredClone(engine.stats);
        vi.spyOn(engine, 'stats', 'get').mockReturnValue(frozen);
        vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: Date.now() });
        await health();
        vi.setSystemTime(Date.now() + 150_000);
        const { status, body } = await health();
        expect(status).toBe(503);
        expect(body.message).toMatch(/^The monitoring engine has started no check for 1[45]\d s$/);
        // A beat judged healthy just before the clock moved may still be on its way: let it land, then count.
        await new Promise((r) => setTimeout(r, 1200));
        const after = beats;
        await new Promise((r) => setTimeout(r, 2500));
        expect(beats).toBe(after);
        vi.useRealTimers();
        vi.restoreAllMocks();
    });

    it('answers 503 when a notification has waited 15 minutes', { timeout: 60_000 }, async () => {
        await start();
        const twentyMinutesAgo = new Date(Date.now() - 20 * 60_000);
        await t.app.ctx.db.insert(outbox).values({
            channelId: 999_999,
            kind: 'alert',
            text: 'stuck',
            createdAt: twentyMinutesAgo,
            nextAttemptAt: twentyMinutesAgo,
        });
        // The outbox's figures are read at most once a second (the heartbeat may just have read them).
        await vi.waitFor(
            async () => {
                const { status, body } = await health();
                expect(status).toBe(503);
                expect(body).toMatchObject({
                    message: 'A notification has waited 20 min to be delivered',
                    engine: { outbox_backlog: 1 },
                });
            },
            { timeout: 2500, interval: 100 }
        );
    });
});
