import { eq } from 'drizzle-orm';
import { monitors } from '../../../../server/db/schema';
import { type ChainSim, startChainSim } from '../../../../tools/chain-sim';
import { type FakeTelegram, startFakeTelegram } from '../../../support/fake-telegram';
import { auth, createTestApp, login, seedCompany, seedUser, type TestApp } from '../../helpers';
import { seedNode, waitFor } from '../../seed';

/** The jail budget end to end: engine, outbox and a fake Telegram against the simulator. */
let t: TestApp;
let telegram: FakeTelegram;
let sim: ChainSim;

beforeAll(async () => {
    telegram = await startFakeTelegram();
    // Window 1000, min signed 0.05: a budget of 950 misses; 25 % = 237.5, 50 % = 475.
    sim = await startChainSim({ blockTimeMs: 300, signedBlocksWindow: 1000 });
    t = await createTestApp({ engineEnabled: true, telegramApiUrl: telegram.url });
});
afterAll(async () => {
    await t?.close();
    await sim?.close();
    await telegram?.close();
});

it('the budget crossing 25 % then 50 %: Warning, then Error with one alert naming the time to jail', {
    timeout: 60_000,
}, async () => {
    const companyId = await seedCompany(t.app, 'Budget');
    const { monitorId } = await seedNode(t.app, {
        companyId,
        services: [{ type: 'rest', address: sim.nodes[0]?.restUrl ?? '' }],
        monitor: {
            type: 'slashingWindow',
            name: 'Jail budget',
            settings: { valoper_address: sim.chain.ours.valoper, sleep_duration_seconds: 1 },
        },
        telegram: { chatId: '-3001' },
    });
    const row = async () => (await t.app.ctx.db.select().from(monitors).where(eq(monitors.id, monitorId)))[0];
    await waitFor('a healthy first check', async () => {
        const r = await row();
        return r?.lastCheck && r.status && r.lastError === null;
    });

    sim.control.setMissedCounter(300);
    const warned = await waitFor('the warning', async () => {
        const r = await row();
        return r?.status === true && r.lastError?.includes('(31.6 % of the jail budget)') ? r : null;
    });
    expect(warned.lastError).toMatch(/missed 300 of 950 blocks allowed .*; 650 left; /);
    expect(telegram.sent).toHaveLength(0);
    // The monitor's history charts the missed blocks in the window, as the catalogue's reading names them.
    await seedUser(t.app, { username: 'budget-admin', companyId, isAdmin: true });
    const { access } = await login(t.app, 'budget-admin');
    await waitFor('the reading in the monitor history', async () => {
        const res = await t.app.inject({ url: `/api/monitors/${monitorId}/checks`, headers: auth(access) });
        return res.json().results.some((c: { value: number | null }) => c.value === 300);
    });

    sim.control.setMissedCounter(470);
    sim.control.missSignatures({ mode: 'absent' });
    await waitFor('the error', async () => (await row())?.status === false);
    sim.control.clearMiss();
    await waitFor('the alert', () => telegram.sent.length >= 1);
    await new Promise((r) => setTimeout(r, 2500));
    expect(telegram.sent).toHaveLength(1);
    const text = telegram.sent[0]?.text ?? '';
    expect(text).toContain('ALERT');
    expect(text).toMatch(
        /of 950 blocks allowed in the slashing window of 1000 \((4[89]|5\d)\.\d % of the jail budget\)/
    );
    expect(text).toMatch(/jailed in about \d+(\.\d)? (s|min|h) at the current miss rate/);
});
