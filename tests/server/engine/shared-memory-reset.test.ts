import { eq } from 'drizzle-orm';
import { monitorStates, monitors } from '../../../server/db/schema';
import { Engine } from '../../../server/engine/engine';
import type { PersistedState } from '../../../server/engine/results';
import { type ChainSim, startChainSim } from '../../../tools/chain-sim';
import { createTestApp, seedCompany, type TestApp } from '../helpers';
import { seedNode, waitFor } from '../seed';

/**
 * The cluster profile's engine (each check starts from the stored state) forgets a monitor's memory when its
 * settings change, as the embedded engine forgets it in memory: misses counted under the old settings do not count
 * under the new ones.
 */
let t: TestApp;
let sim: ChainSim;
let engine: Engine | null = null;

beforeAll(async () => {
    sim = await startChainSim({ blockTimeMs: 200, nodes: 1 });
    t = await createTestApp();
});
afterAll(async () => {
    await engine?.stop();
    await t?.close();
    await sim?.close();
});

type Memory = { misses: number; lastMissReason: string | null };
const stored = async (id: number) =>
    (await t.app.ctx.db.select().from(monitorStates).where(eq(monitorStates.monitorId, id)))[0]?.state as
        | (PersistedState & { memory?: Memory })
        | undefined;

it('a settings change starts the stored memory afresh', { timeout: 60_000 }, async () => {
    const db = t.app.ctx.db;
    const settings = { miss_tolerance: 200, miss_tolerance_period_seconds: 600, sleep_duration_seconds: 1 };
    const { monitorId } = await seedNode(t.app, {
        companyId: await seedCompany(t.app, 'Acme'),
        services: [{ type: 'rpc', address: sim.nodes[0]?.rpcUrl ?? '' }],
        monitor: { type: 'blockCheck', name: 'Block production', settings },
    });
    engine = new Engine(t.app.ctx, t.app.log, { sharedState: true, startSpreadMs: 100, flushIntervalMs: 200 });
    await engine.start();
    const first = await waitFor('a saved check', () => stored(monitorId));
    // 100 misses under the first settings, as if the node had failed for a while.
    const memory = { ...(first.memory as Memory), misses: 100, lastMissReason: 'before the edit' };
    await db
        .update(monitorStates)
        .set({ state: { ...first, memory } })
        .where(eq(monitorStates.monitorId, monitorId));
    await waitFor('a check that kept the misses', async () => ((await stored(monitorId))?.memory?.misses ?? 0) >= 100);

    await db
        .update(monitors)
        .set({ configurationObject: JSON.stringify({ ...settings, miss_tolerance: 150 }) })
        .where(eq(monitors.id, monitorId));
    t.app.ctx.events.emit({ name: 'MONITOR_UPDATED', monitorId });
    const after = await waitFor('a check under the new settings', async () => {
        const s = await stored(monitorId);
        return s?.memory && s.memory.lastMissReason !== 'before the edit' && s.memory.misses < 100 ? s : null;
    });
    expect(after.memory?.misses).toBeLessThan(100);
});
