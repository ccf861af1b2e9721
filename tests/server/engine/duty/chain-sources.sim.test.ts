import { eq } from 'drizzle-orm';
import { checkResults, configurations, monitors, servers, services } from '../../../../server/db/schema';
import { type ChainSim, startChainSim } from '../../../../tools/chain-sim';
import { auth, createTestApp, login, seedCompany, seedUser, type TestApp } from '../../helpers';
import { seedNode, waitFor } from '../../seed';

/**
 * Validator duty read from the chain, not through one node: a configuration with the validator's node (sim node 0)
 * and a sentry (node 1). The duty monitors follow a fresh source when the validator's own node halts or falls behind.
 */
const BLOCK_MS = 300;
const TOLERANCE = 5;
let t: TestApp;
let sim: ChainSim;
let companyId: number;

beforeAll(async () => {
    // Window 100 with min signed 0.05: a jail budget of 95 misses.
    sim = await startChainSim({ blockTimeMs: BLOCK_MS, signedBlocksWindow: 100, nodes: 2 });
    t = await createTestApp({ engineEnabled: true });
    companyId = await seedCompany(t.app, 'Duty');
});
afterAll(async () => {
    await t?.close();
    await sim?.close();
});

const node = (i: number) => {
    const n = sim.nodes[i];
    if (!n) throw new Error(`no node ${i}`);
    return n;
};

/** A configuration with validator-1 (node 0) holding the monitor, and sentry-1 (node 1) beside it. */
async function withSentry(monitor: Parameters<typeof seedNode>[1]['monitor']) {
    const seeded = await seedNode(t.app, {
        companyId,
        services: [
            { type: 'rpc', address: node(0).rpcUrl },
            { type: 'rest', address: node(0).restUrl },
        ],
        monitor,
    });
    const db = t.app.ctx.db;
    const [sentry] = await db
        .insert(servers)
        .values({ configurationId: seeded.configurationId, name: 'sentry-1', address: 'http://127.0.0.1' })
        .returning();
    if (!sentry) throw new Error('no sentry');
    await db.insert(services).values([
        { serverId: sentry.id, name: 'rpc', type: 'rpc', address: node(1).rpcUrl },
        { serverId: sentry.id, name: 'rest', type: 'rest', address: node(1).restUrl },
    ]);
    await db.update(configurations).set({ updatedAt: new Date() }).where(eq(configurations.id, seeded.configurationId));
    t.app.ctx.events.emit({ name: 'SERVER_CREATED', serverId: sentry.id });
    return seeded;
}

async function addMonitor(configurationId: number, serverId: number, type: 'slashingWindow', settings: object) {
    const [m] = await t.app.ctx.db
        .insert(monitors)
        .values({ configurationId, serverId, name: type, type, configurationObject: JSON.stringify(settings) })
        .returning();
    if (!m) throw new Error('no monitor');
    t.app.ctx.events.emit({ name: 'MONITOR_CREATED', monitorId: m.id });
    return m.id;
}

const row = async (id: number) => (await t.app.ctx.db.select().from(monitors).where(eq(monitors.id, id)))[0];

it('reads through the sentry when the own node falls behind or halts: misses, Error in time, the jail budget and the jail', {
    timeout: 120_000,
}, async () => {
    const valoper = sim.chain.ours.valoper;
    const sign = await withSentry({
        type: 'signMissCheck',
        name: 'Signing',
        settings: {
            valoper_address: valoper,
            miss_tolerance: TOLERANCE,
            miss_tolerance_period_seconds: 600,
            sleep_duration_seconds: 1,
        },
    });
    const budget = await addMonitor(sign.configurationId, sign.serverId, 'slashingWindow', {
        valoper_address: valoper,
        warning_percent: 10,
        error_percent: 90,
        sleep_duration_seconds: 1,
    });
    await waitFor('healthy first checks', async () => {
        const [a, b] = [await row(sign.monitorId), await row(budget)];
        return a?.lastCheck && b?.lastCheck && a.status && b.status && a.lastError === null && b.lastError === null;
    });

    // The own node 10 blocks behind (catching up) is passed over: the misses are read through the sentry.
    sim.control.catchUp(0, { behindBlocks: 10 });
    sim.control.missSignatures({ mode: 'absent', blocks: 2 });
    const warned = await waitFor('the misses, read through the sentry', async () => {
        const r = await row(sign.monitorId);
        return r?.lastError?.startsWith('Missed 2 of') ? r : null;
    });
    expect(warned.status).toBe(true);
    expect(warned.lastError).toMatch(/; read through sentry-1 at height [\d,]+$/);
    // The history names the source of every reading: the own node first, then the sentry.
    const sources = await waitFor('the history naming the sources', async () => {
        const rows = await t.app.ctx.db
            .select({ source: checkResults.source })
            .from(checkResults)
            .where(eq(checkResults.monitorId, sign.monitorId));
        const names = new Set(rows.map((r) => r.source));
        return names.has('sentry-1') ? names : null;
    });
    expect([...sources].sort()).toEqual(['sentry-1', 'validator-1']);
    sim.control.clearCatchUp(0);

    // The validator's node halts; the chain goes on without its signatures.
    const haltedAt = performance.now();
    sim.control.halt(0);
    const failed = await waitFor(
        'the signing Error',
        async () => {
            const r = await row(sign.monitorId);
            return r?.status === false ? r : null;
        },
        TOLERANCE * BLOCK_MS + 30_000
    );
    expect(performance.now() - haltedAt).toBeLessThan(TOLERANCE * BLOCK_MS + 30_000);
    expect(failed.lastError).toMatch(/^Missed \d+ of the last \d+ blocks \(tolerance 5\).*; read through sentry-1 at/);
    // The Validator card's signing grid shows the misses as they happen, read through the sentry.
    await seedUser(t.app, { username: 'duty-admin', companyId, isAdmin: true });
    const token = (await login(t.app, 'duty-admin')).access;
    const grid = await waitFor('the misses in the signing grid', async () => {
        const res = await t.app.inject({
            url: `/api/configurations/${sign.configurationId}/validator`,
            headers: auth(token),
        });
        const signing = res.json().validators[0]?.signing;
        const missed = signing?.blocks.filter((b: { state: string }) => b.state === 'missed').length ?? 0;
        return missed >= TOLERANCE ? signing : null;
    });
    expect(grid.source).toBe('sentry-1');
    expect(grid.blocks.length).toBeLessThanOrEqual(100);
    const counting = await waitFor('the jail budget counting through the sentry', async () => {
        const r = await row(budget);
        return r?.lastError?.includes('of the jail budget') ? r : null;
    });
    expect(counting.lastError).toMatch(/missed \d+ of 95 blocks allowed .* read through sentry-1 at height/);

    // Jailed: seen through the sentry while the own node still serves its frozen state.
    sim.control.jail();
    const jailed = await waitFor('the jail seen through the sentry', async () => {
        const r = await row(budget);
        return r?.lastError?.includes('is jailed') ? r : null;
    });
    expect(jailed.status).toBe(false);
    expect(jailed.lastError).toMatch(/read through sentry-1/);
    // The sign monitor sees it at its own next check, which may come a moment after the budget monitor's.
    const signJailed = await waitFor('the jail in the sign monitor', async () => {
        const r = await row(sign.monitorId);
        return r?.lastError?.includes('is jailed') ? r : null;
    });
    expect(signJailed.lastError).toMatch(/is jailed.*read through sentry-1/);
    sim.control.unjail();
    sim.control.resume(0);
});

it('every source stale: "no fresh source" naming each, Warning for a minute then Error, never Healthy', {
    timeout: 150_000,
}, async () => {
    const seeded = await withSentry({
        type: 'slashingWindow',
        name: 'Jail budget',
        settings: { valoper_address: sim.chain.ours.valoper, sleep_duration_seconds: 1 },
    });
    await waitFor('a first check', async () => (await row(seeded.monitorId))?.lastCheck);
    sim.control.staleBlockTime(0, 600);
    sim.control.staleBlockTime(1, 600);
    const since = performance.now();
    const seen: { status: boolean; lastError: string | null; at: number }[] = [];
    const errored = await waitFor(
        'the Error',
        async () => {
            const r = await row(seeded.monitorId);
            if (r?.lastError?.startsWith('no fresh source:'))
                seen.push({ status: r.status, lastError: r.lastError, at: performance.now() - since });
            return r?.status === false ? r : null;
        },
        100_000
    );
    expect(errored.lastError).toMatch(
        /^no fresh source: validator-1 stuck at [\d,]+ for 10 min, sentry-1 stuck at [\d,]+ for 10 min$/
    );
    const warnings = seen.filter((s) => s.status);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.every((s) => s.lastError?.startsWith('no fresh source:'))).toBe(true);
    // Error only once the minute of Warning is over, and never Healthy on the way.
    expect(seen.find((s) => !s.status)?.at).toBeGreaterThanOrEqual(55_000);
    for (let i = 0; i < 10; i++) {
        const r = await row(seeded.monitorId);
        expect(r?.status).toBe(false);
        await new Promise((res) => setTimeout(res, 200));
    }
    sim.control.staleBlockTime(0, 0);
    sim.control.staleBlockTime(1, 0);
});
