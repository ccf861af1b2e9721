import { eq } from 'drizzle-orm';
import { monitors, servers, services } from '../../../server/db/schema';
import type { ChainSim } from '../../../tools/chain-sim';
import { startChainSim } from '../../../tools/chain-sim';
import type { FakeTelegram } from '../../support/fake-telegram';
import { startFakeTelegram } from '../../support/fake-telegram';
import type { TestApp } from '../helpers';
import { auth, createTestApp, login, seedCompany, seedUser } from '../helpers';
import { seedNode, waitFor } from '../seed';

/**
 * R14 end to end: the real engine and outbox, three simulated nodes of one chain in one configuration, a fake
 * Telegram. A chain halt sends one CHAIN STALLED and, when blocks resume, one CHAIN RESUMED; no node alerts.
 */
let t: TestApp;
let telegram: FakeTelegram;
let sim: ChainSim;

beforeAll(async () => {
    telegram = await startFakeTelegram();
    sim = await startChainSim({ blockTimeMs: 300, nodes: 3 });
    t = await createTestApp({ engineEnabled: true, telegramApiUrl: telegram.url, answerCacheMs: 0 });
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

it('a halt of the chain: one CHAIN STALLED, one CHAIN RESUMED, no alert per node', { timeout: 60_000 }, async () => {
    const db = t.app.ctx.db;
    const companyId = await seedCompany(t.app, 'Halt');
    const first = await seedNode(t.app, {
        companyId,
        services: [{ type: 'rpc', address: sim.nodes[0]?.rpcUrl ?? '' }],
        monitor: { type: 'blockCheck', name: 'height node-1', settings },
        telegram: { chatId: '-2001' },
    });
    // Two more nodes of the same configuration, each with its own blockCheck.
    for (const i of [1, 2]) {
        const [srv] = await db
            .insert(servers)
            .values({ configurationId: first.configurationId, name: `node-${i + 1}`, address: 'http://127.0.0.1' })
            .returning();
        if (!srv) throw new Error('no server');
        await db
            .insert(services)
            .values({ serverId: srv.id, name: 'rpc', type: 'rpc', address: sim.nodes[i]?.rpcUrl ?? '' });
        const [mon] = await db
            .insert(monitors)
            .values({
                configurationId: first.configurationId,
                serverId: srv.id,
                name: `height node-${i + 1}`,
                type: 'blockCheck',
                configurationObject: JSON.stringify(settings),
            })
            .returning();
        t.app.ctx.events.emit({ name: 'MONITOR_CREATED', monitorId: mon?.id });
    }
    const rows = () => db.select().from(monitors).where(eq(monitors.configurationId, first.configurationId));
    const texts = () => telegram.sent.filter((m) => String(m.chat_id) === '-2001').map((m) => m.text);
    const headings = () => texts().map((text) => /<b>([A-Z ]+)<\/b>/.exec(text)?.[1] ?? text);

    await waitFor('three healthy nodes', async () => {
        const r = await rows();
        return r.length === 3 && r.every((m) => m.lastCheck && m.status && m.lastError === null);
    });
    sim.control.halt();
    await waitFor('the chain stall message', () => texts().length >= 1, 30_000);
    await waitFor('every node in Error', async () => (await rows()).every((m) => m.status === false), 30_000);
    // Outbox passes run each second: anything else queued by the three failures would show by now.
    await new Promise((r) => setTimeout(r, 1500));
    expect(headings()).toEqual(['CHAIN STALLED']);
    expect(texts()[0]).toMatch(/^⛔ <b>CHAIN STALLED<\/b> cosmoshub\n/);
    // The dashboard's failed-monitors answer names the one halt on each of the three rows.
    await seedUser(t.app, { username: 'halt-viewer', companyId });
    const viewer = await login(t.app, 'halt-viewer');
    type Failed = { id: number; chain_halt?: { id: string; height: number; since: string } };
    const failed = async () =>
        (
            await t.app.inject({ method: 'GET', url: '/api/monitors/failed', headers: auth(viewer.access) })
        ).json() as Failed[];
    await waitFor('the halt on every failed row', async () => {
        const f = await failed();
        return f.length === 3 && f.every((m) => m.chain_halt);
    });
    const halted = await failed();
    expect(new Set(halted.map((m) => m.chain_halt?.id)).size).toBe(1);
    const halt = halted[0]?.chain_halt;
    expect(texts()[0]).toContain(`No new block after height ${halt?.height}`);
    expect(Number.isNaN(Date.parse(halt?.since ?? ''))).toBe(false);
    expect(texts()[0]).toMatch(/Problem: No new block after height \d+ on any watched node of cosmoshub/);

    sim.control.resume();
    await waitFor('the resume message', () => texts().length >= 2, 30_000);
    await waitFor('every node healthy', async () => (await rows()).every((m) => m.status === true), 30_000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(headings()).toEqual(['CHAIN STALLED', 'CHAIN RESUMED']);
    expect(await failed()).toEqual([]);
    expect(texts()[1]).toMatch(/Was stalled for \d+ s/);
    const incident = (text: string | undefined) => /Incident (\w+)/.exec(text ?? '')?.[1];
    expect(incident(texts()[1])).toBe(incident(texts()[0]));
});
