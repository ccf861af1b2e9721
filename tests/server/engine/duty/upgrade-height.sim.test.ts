import { eq } from 'drizzle-orm';
import { auditEntries, monitors, servers, services } from '../../../../server/db/schema';
import { type ChainSim, startChainSim } from '../../../../tools/chain-sim';
import { type FakeTelegram, startFakeTelegram } from '../../../support/fake-telegram';
import { createTestApp, seedCompany, type TestApp } from '../../helpers';
import { seedNode, waitFor } from '../../seed';

/**
 * A planned upgrade end to end with three nodes: a notice when the plan shows, one UPGRADE HEIGHT REACHED and no
 * block alert while the chain stands at the height, and after the resume an alert for the node left behind only.
 */
let t: TestApp;
let telegram: FakeTelegram;
let sim: ChainSim;

beforeAll(async () => {
    telegram = await startFakeTelegram();
    sim = await startChainSim({ blockTimeMs: 300, nodes: 3 });
    t = await createTestApp({ engineEnabled: true, telegramApiUrl: telegram.url });
});
afterAll(async () => {
    await t?.close();
    await sim?.close();
    await telegram?.close();
});

const blockSettings = JSON.stringify({
    miss_tolerance: 3,
    miss_tolerance_period_seconds: 3,
    sleep_duration_seconds: 1,
    alert_sleep_duration_minutes: 60,
});

it('upgrade height reached with three nodes: one message, no block alerts; a node left behind alerts', {
    timeout: 90_000,
}, async () => {
    const db = t.app.ctx.db;
    const companyId = await seedCompany(t.app, 'Upgrade');
    const first = await seedNode(t.app, {
        companyId,
        services: [
            { type: 'rpc', address: sim.nodes[0]?.rpcUrl ?? '' },
            { type: 'rest', address: sim.nodes[0]?.restUrl ?? '' },
        ],
        monitor: { type: 'blockCheck', name: 'height node-1', settings: JSON.parse(blockSettings) },
        telegram: { chatId: '-5001' },
    });
    const [watch] = await db
        .insert(monitors)
        .values({
            configurationId: first.configurationId,
            serverId: first.serverId,
            name: 'Upgrades',
            type: 'upgradeWatch',
            configurationObject: JSON.stringify({ sleep_duration_seconds: 1, grace_minutes: 30 }),
        })
        .returning();
    for (const i of [1, 2]) {
        const [srv] = await db
            .insert(servers)
            .values({ configurationId: first.configurationId, name: `node-${i + 1}`, address: 'http://127.0.0.1' })
            .returning();
        if (!srv) throw new Error('no server');
        await db
            .insert(services)
            .values({ serverId: srv.id, name: 'rpc', type: 'rpc', address: sim.nodes[i]?.rpcUrl ?? '' });
        await db.insert(monitors).values({
            configurationId: first.configurationId,
            serverId: srv.id,
            name: `height node-${i + 1}`,
            type: 'blockCheck',
            configurationObject: blockSettings,
        });
    }
    t.app.ctx.events.emit({ name: 'MONITOR_CREATED', monitorId: watch?.id });
    const rows = () => db.select().from(monitors).where(eq(monitors.configurationId, first.configurationId));
    const blockRows = async () => (await rows()).filter((m) => m.type === 'blockCheck');
    const texts = () => telegram.sent.map((m) => m.text);
    const headings = () => texts().map((text) => /<b>([A-Z ]+)<\/b>/.exec(text)?.[1] ?? text);

    await waitFor('four healthy monitors', async () => {
        const r = await rows();
        return r.length === 4 && r.every((m) => m.lastCheck && m.status && m.lastError === null);
    });
    const height = sim.chain.height + 20;
    const logsBefore = t.logs.length;
    sim.control.scheduleUpgrade({ name: 'v2.0.0', height });
    await waitFor('the upgrade notice', () => texts().length >= 1);
    expect(texts()[0]).toMatch(/^📅 <b>UPGRADE SCHEDULED<\/b> Upgrades\n/);
    expect(texts()[0]).toContain(`Notice: Upgrade "v2.0.0" scheduled at height ${height}, `);
    expect(texts()[0]).toMatch(/expected around \S+Z \(in about \d+ s\); the node runs v0\.50\.9/);

    // Stopped where the plan says, the rows say what they wait for instead of a bare Error.
    const waiting = `Waiting at upgrade height ${height} (plan v2.0.0)`;
    await waitFor(
        'every node waiting at the height',
        async () => (await blockRows()).every((m) => m.status === true && m.lastError === waiting),
        30_000
    );
    await waitFor('the height message', () => texts().length >= 2);
    // Outbox passes run each second: anything else queued by three failing nodes would show by now; each node is
    // polled every second meanwhile.
    await new Promise((r) => setTimeout(r, 2500));
    // The hold is one change per node: one audit row each, and nothing at warn or above in the log.
    const audit = await db.select().from(auditEntries).where(eq(auditEntries.configurationId, first.configurationId));
    const blockIds = (await blockRows()).map((m) => m.id);
    for (const id of blockIds) {
        const mine = audit.filter((a) => a.monitorId === id).map((a) => a.message);
        expect(mine).toHaveLength(1);
        expect(mine[0]).toContain(`Waiting at upgrade height ${height} (plan v2.0.0): alerts held back`);
    }
    const holdLines = t.logs.slice(logsBefore).filter((l) => l.includes('height node-'));
    expect(holdLines.filter((l) => /"level":(40|50|60)/.test(l))).toEqual([]);
    expect(holdLines.filter((l) => l.includes('Waiting at upgrade height'))).toHaveLength(3);
    expect(holdLines.every((l) => l.includes('"target":{'))).toBe(true);
    expect(headings()).toEqual(['UPGRADE SCHEDULED', 'UPGRADE HEIGHT REACHED']);
    expect(texts()[1]).toMatch(/^⏸️ <b>UPGRADE HEIGHT REACHED<\/b> cosmoshub\n/);
    expect(texts()[1]).toContain(
        `Notice: The chain cosmoshub stopped at height ${height} for the upgrade "v2.0.0"; block alerts of this configuration's nodes are held for 30 min`
    );
    expect(sim.chain.height).toBe(height);

    // Node 3 stays on the old binary; the others run the new one and blocks resume.
    sim.control.halt(2);
    sim.control.applyUpgrade();
    await waitFor('the alert for the node left behind', () => texts().length >= 3, 30_000);
    await waitFor(
        'nodes 1 and 2 healthy',
        async () => {
            const r = await blockRows();
            return r.filter((m) => m.status === true).length === 2;
        },
        30_000
    );
    await new Promise((r) => setTimeout(r, 2500));
    expect(headings()).toEqual(['UPGRADE SCHEDULED', 'UPGRADE HEIGHT REACHED', 'ALERT']);
    expect(texts()[2]).toMatch(/^🔴 <b>ALERT<\/b> height node-3\n/);
    const stuck = (await blockRows()).find((m) => m.name === 'height node-3');
    expect(stuck?.status).toBe(false);
});
