import { eq, inArray } from 'drizzle-orm';
import { companies, monitors } from '../../../server/db/schema';
import { Engine } from '../../../server/engine/engine';
import type { ChainSim } from '../../../tools/chain-sim';
import { startChainSim } from '../../../tools/chain-sim';
import type { TestApp } from '../helpers';
import { createTestApp, seedCompany } from '../helpers';
import { seedNode, waitFor } from '../seed';

/**
 * A company's engine quota against the attack it stops, scaled down: the engine has 4 slots; company A has 12
 * blockChecks against a node that answers after a minute (each read holds its slot until the 15 s timeout), company B
 * one blockCheck each second against a healthy node. With A capped at 2 slots, B's check keeps running: its result is
 * recorded again and again while not one of A's reads has come back yet. Without the cap, A's reads held every slot and
 * B waited.
 */
let t: TestApp;
let sim: ChainSim;
let engine: Engine | null = null;

beforeAll(async () => {
    sim = await startChainSim({ blockTimeMs: 300, nodes: 2 });
    t = await createTestApp();
});
afterAll(async () => {
    sim?.control.resetFaults();
    await engine?.stop();
    await t?.close();
    await sim?.close();
});

const blockCheck = (sleep: number) => ({
    type: 'blockCheck' as const,
    settings: {
        miss_tolerance: 3,
        miss_tolerance_period_seconds: 30,
        sleep_duration_seconds: sleep,
        alert_sleep_duration_minutes: 60,
    },
});

it("a company's slow checks do not stop another company's check from running", { timeout: 90_000 }, async () => {
    const db = t.app.ctx.db;
    const a = await seedCompany(t.app, 'Slow targets');
    await db.update(companies).set({ maxConcurrentChecks: 2 }).where(eq(companies.id, a));
    const b = await seedCompany(t.app, 'Neighbour');
    sim.control.setFault(1, 'rpc', { delayMs: 60_000 });
    const slow: number[] = [];
    for (let i = 0; i < 12; i++) {
        const n = await seedNode(t.app, {
            companyId: a,
            services: [{ type: 'rpc', address: sim.nodes[1]?.rpcUrl ?? '' }],
            monitor: { ...blockCheck(15), name: `slow ${i}` },
        });
        slow.push(n.monitorId);
    }
    const fast = await seedNode(t.app, {
        companyId: b,
        services: [{ type: 'rpc', address: sim.nodes[0]?.rpcUrl ?? '' }],
        monitor: { ...blockCheck(1), name: 'neighbour height' },
    });

    engine = new Engine(t.app.ctx, t.app.log, { concurrency: 4, startSpreadMs: 500, flushIntervalMs: 200 });
    await engine.start();

    const recorded = new Map<string, { status: boolean; lastError: string | null }>();
    await waitFor(
        "three recorded results of company B's check",
        async () => {
            const [m] = await db.select().from(monitors).where(eq(monitors.id, fast.monitorId));
            if (m?.lastCheck) recorded.set(m.lastCheck.toISOString(), { status: m.status, lastError: m.lastError });
            return recorded.size >= 3;
        },
        60_000
    );
    // Each of them read its node. The simulator makes its blocks on this test's busy thread, so on a loaded machine
    // a poll may find the height unchanged: that is a reading too (a Warning that says so), unlike a read failure.
    const failedReads = [...recorded.values()].filter(
        (r) => !r.status || (r.lastError !== null && !/^Height \d+ has not advanced for /.test(r.lastError))
    );
    expect(failedReads).toEqual([]);
    // All that while, every read of company A was still waiting on its slow node: none has a result yet.
    const slowRows = await db.select().from(monitors).where(inArray(monitors.id, slow));
    expect(slowRows.map((r) => r.lastCheck)).toEqual(slow.map(() => null));
});
