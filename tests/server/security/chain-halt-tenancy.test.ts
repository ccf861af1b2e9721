import { eq } from 'drizzle-orm';
import { monitors, servers, services } from '../../../server/db/schema';
import type { ChainSim } from '../../../tools/chain-sim';
import { startChainSim } from '../../../tools/chain-sim';
import type { FakeTelegram } from '../../support/fake-telegram';
import { startFakeTelegram } from '../../support/fake-telegram';
import type { TestApp } from '../helpers';
import { createTestApp, seedCompany } from '../helpers';
import { seedNode, waitFor } from '../seed';

/**
 * Chain-halt inhibition across tenants, the attack as it was run: company A watches two nodes under company B's chain
 * name (and of B's very chain id), both frozen at the height B's lone node stopped at. Chain-halt inhibition used to
 * pool heights by the typed chain name across companies, so B's ALERT became "CHAIN STALLED … alerts held back".
 * Nothing one company watches may change what another company is told: B's lone node alerts as any lone node does.
 */
let t: TestApp;
let telegram: FakeTelegram;
let sim: ChainSim;

beforeAll(async () => {
    telegram = await startFakeTelegram();
    sim = await startChainSim({ blockTimeMs: 300, nodes: 3, chainId: 'cosmoshub-4' });
    t = await createTestApp({ engineEnabled: true, telegramApiUrl: telegram.url });
});
afterAll(async () => {
    await t?.close();
    await sim?.close();
    await telegram?.close();
});

const settings = {
    miss_tolerance: 3,
    miss_tolerance_period_seconds: 3,
    sleep_duration_seconds: 1,
    alert_sleep_duration_minutes: 60,
};

it("another company's frozen nodes on the same chain do not turn a company's ALERT into CHAIN STALLED", {
    timeout: 60_000,
}, async () => {
    const db = t.app.ctx.db;
    const victim = await seedCompany(t.app, 'Victim');
    const attacker = await seedCompany(t.app, 'Attacker');
    const b = await seedNode(t.app, {
        companyId: victim,
        chain: 'cosmoshub',
        services: [{ type: 'rpc', address: sim.nodes[0]?.rpcUrl ?? '' }],
        monitor: { type: 'blockCheck', name: 'height victim', settings },
        telegram: { chatId: '-3001' },
    });
    const a = await seedNode(t.app, {
        companyId: attacker,
        chain: 'cosmoshub',
        services: [{ type: 'rpc', address: sim.nodes[1]?.rpcUrl ?? '' }],
        monitor: { type: 'blockCheck', name: 'height decoy 1', settings },
        telegram: { chatId: '-3002' },
    });
    const [srv] = await db
        .insert(servers)
        .values({ configurationId: a.configurationId, name: 'decoy-2', address: 'http://127.0.0.1' })
        .returning();
    if (!srv) throw new Error('no server');
    await db
        .insert(services)
        .values({ serverId: srv.id, name: 'rpc', type: 'rpc', address: sim.nodes[2]?.rpcUrl ?? '' });
    const [decoy] = await db
        .insert(monitors)
        .values({
            configurationId: a.configurationId,
            serverId: srv.id,
            name: 'height decoy 2',
            type: 'blockCheck',
            configurationObject: JSON.stringify(settings),
        })
        .returning();
    t.app.ctx.events.emit({ name: 'MONITOR_CREATED', monitorId: decoy?.id });

    const all = () => db.select().from(monitors);
    const texts = (chat: string) => telegram.sent.filter((m) => String(m.chat_id) === chat).map((m) => m.text);
    const headings = (chat: string) => texts(chat).map((text) => /<b>([A-Z ]+)<\/b>/.exec(text)?.[1] ?? text);

    await waitFor('three healthy nodes', async () => {
        const r = await all();
        return r.length === 3 && r.every((m) => m.lastCheck && m.status && m.lastError === null);
    });
    sim.control.halt();
    await waitFor('a message to the victim', () => texts('-3001').length >= 1, 30_000);
    await waitFor('a message to the attacker', () => texts('-3002').length >= 1, 30_000);
    await waitFor('every node in Error', async () => (await all()).every((m) => m.status === false), 30_000);
    await new Promise((r) => setTimeout(r, 1500));

    expect(headings('-3001')).toEqual(['ALERT']);
    expect(texts('-3001')[0]).not.toMatch(/held back/);
    const [victimMonitor] = await db.select().from(monitors).where(eq(monitors.id, b.monitorId));
    expect(victimMonitor?.lastError).toMatch(/has not advanced|old \(limit/);
    // The attacker's own two nodes are a halt as far as the attacker's company can tell.
    expect(headings('-3002')).toEqual(['CHAIN STALLED']);
});
