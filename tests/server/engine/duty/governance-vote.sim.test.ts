import { eq } from 'drizzle-orm';
import { monitors } from '../../../../server/db/schema';
import { type ChainSim, startChainSim } from '../../../../tools/chain-sim';
import { type FakeTelegram, startFakeTelegram } from '../../../support/fake-telegram';
import { createTestApp, seedCompany, type TestApp } from '../../helpers';
import { seedNode, waitFor } from '../../seed';

/** Governance duty end to end: engine, outbox and a fake Telegram against the simulator's gov module. */
let t: TestApp;
let telegram: FakeTelegram;
let sim: ChainSim;

beforeAll(async () => {
    telegram = await startFakeTelegram();
    sim = await startChainSim({ blockTimeMs: 500 });
    t = await createTestApp({ engineEnabled: true, telegramApiUrl: telegram.url });
});
afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
    await sim?.close();
    await telegram?.close();
});

const H = 3_600_000;

it('an unvoted proposal moving into the last 24 h: one alert; the vote recovers it', { timeout: 60_000 }, async () => {
    const companyId = await seedCompany(t.app, 'Gov');
    const id = sim.control.openProposal({ endsAtMs: Date.now() + 25 * H, title: 'Raise the community tax' });
    const { monitorId } = await seedNode(t.app, {
        companyId,
        services: [{ type: 'rest', address: sim.nodes[0]?.restUrl ?? '' }],
        monitor: {
            type: 'governanceVote',
            name: 'Votes',
            settings: { valoper_address: sim.chain.ours.valoper, sleep_duration_seconds: 1 },
        },
        telegram: { chatId: '-4001' },
    });
    const row = async () => (await t.app.ctx.db.select().from(monitors).where(eq(monitors.id, monitorId)))[0];
    const warned = await waitFor('the warning', async () => {
        const r = await row();
        return r?.status === true && r.lastError ? r : null;
    });
    expect(warned.lastError).toBe(
        `Not voted by ${sim.chain.ours.account}: proposal #${id} "Raise the community tax" (ends in 25.0 h)`
    );
    expect(telegram.sent).toHaveLength(0);

    // Two hours pass for engine, simulator and test alike.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: Date.now() + 2 * H });
    await waitFor('the alert', () => telegram.sent.length >= 1);
    await new Promise((r) => setTimeout(r, 2500));
    expect(telegram.sent).toHaveLength(1);
    expect(telegram.sent[0]?.text).toContain('ALERT');
    expect(telegram.sent[0]?.text).toMatch(
        new RegExp(`proposal #${id} "Raise the community tax" \\(ends in 2[23]\\.\\d h\\)`)
    );

    sim.control.castVote(id);
    await waitFor('the recovery', () => telegram.sent.length >= 2);
    expect(telegram.sent[1]?.text).toContain('RECOVERED');
    await waitFor('healthy', async () => (await row())?.lastError === null);
});
