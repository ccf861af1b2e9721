import { eq } from 'drizzle-orm';
import { monitors } from '../../../server/db/schema';
import type { ChainSim } from '../../../tools/chain-sim';
import { startChainSim } from '../../../tools/chain-sim';
import type { FakeTelegram } from '../../support/fake-telegram';
import { startFakeTelegram } from '../../support/fake-telegram';
import type { TestApp } from '../helpers';
import { persistentTestDatabase, seedCompany, startAppOn } from '../helpers';
import { seedNode, waitFor } from '../seed';

/**
 * The product's promise end to end: a node halts → one alert; the server restarts mid-incident → no duplicate;
 * the alert sleep passes → one reminder; the node resumes → one recovery message.
 */
let sim: ChainSim;
let telegram: FakeTelegram;
let db: Awaited<ReturnType<typeof persistentTestDatabase>>;
let t: TestApp;

beforeAll(async () => {
    sim = await startChainSim({ blockTimeMs: 200 });
    telegram = await startFakeTelegram();
    db = await persistentTestDatabase();
});
afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
    await sim.close();
    await telegram.close();
    await db.drop();
});

const texts = () => telegram.sent.map((m) => m.text);

it('halt → alert → restart without duplicate → reminder → recovery, each exactly once', {
    timeout: 120_000,
}, async () => {
    const config = { ...db.config, engineEnabled: true, telegramApiUrl: telegram.url };
    t = await startAppOn(config);
    const companyId = await seedCompany(t.app, 'Validators Inc');
    const node = sim.nodes[0];
    if (!node) throw new Error('no node');
    const { monitorId } = await seedNode(t.app, {
        companyId,
        services: [{ type: 'rpc', address: node.rpcUrl }],
        monitor: {
            type: 'blockCheck',
            name: 'Block production',
            settings: {
                miss_tolerance: 2,
                miss_tolerance_period_seconds: 3,
                sleep_duration_seconds: 1,
                alert_sleep_duration_minutes: 1,
            },
        },
        telegram: { chatId: '-1001234' },
    });
    const row = async () => (await t.app.ctx.db.select().from(monitors).where(eq(monitors.id, monitorId)))[0];
    await waitFor('a first healthy check', async () => (await row())?.lastCheck && (await row())?.status);

    sim.control.halt(0);
    await waitFor('the alert', () => telegram.sent.length >= 1);
    expect(texts()[0]).toContain('ALERT');
    expect(texts()[0]).toContain('Block production');
    expect(texts()[0]).toContain('Sim mainnet (cosmoshub)');
    expect(telegram.sent[0]?.chat_id).toBe('-1001234');
    expect((await row())?.status).toBe(false);

    await t.close();
    t = await startAppOn(config);
    // Several checks run after the restart while the node is still down: none may alert again.
    const checkedAfterRestart = Date.now();
    await waitFor(
        'checks after the restart',
        async () => ((await row())?.lastCheck?.getTime() ?? 0) > checkedAfterRestart + 2000
    );
    expect(texts()).toHaveLength(1);

    // The alert sleep (1 min) passes for everyone at once: engine, simulator and test share the shifted clock.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: Date.now() + 61_000 });
    await waitFor('the reminder', () => telegram.sent.length >= 2);
    expect(texts()[1]).toContain('STILL FAILING');

    sim.control.resume(0);
    await waitFor('the recovery', () => telegram.sent.length >= 3);
    expect(texts()[2]).toContain('RECOVERED');
    expect(texts()[2]).toMatch(/Was down for 1 min/);
    await new Promise((r) => setTimeout(r, 2500));
    expect(texts()).toHaveLength(3);
    expect((await row())?.status).toBe(true);
});
