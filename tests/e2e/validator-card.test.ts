import type { ValidatorCard } from '../../common/validator-card';
import type { ChainSim } from '../../tools/chain-sim';
import { startChainSim } from '../../tools/chain-sim';
import type { Console } from './harness';
import { ADMIN_PASSWORD, openBrowser, signIn, startConsole } from './harness';
import { seedValidator } from './seed';

/**
 * The Validator card in a real browser: the real server's engine reads the simulator's staking, slashing, gov and
 * upgrade modules, and the configuration page shows the figures the simulator was given.
 */
let server: Console;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let sim: ChainSim;

beforeAll(async () => {
    sim = await startChainSim({ blockTimeMs: 500, validatorCount: 6, maxValidators: 6 });
    server = await startConsole();
    browser = await openBrowser();
}, 300_000);
afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sim?.close();
});

it('shows rank, jail budget, the unvoted proposal, the upgrade and the signing grid the simulator was given', {
    timeout: 180_000,
}, async () => {
    const { call, configurationId, monitor } = await seedValidator(server.url, sim, {
        company: 'Duty Validators',
        configuration: 'Hub validator',
        services: ['rest', 'rpc'],
    });
    sim.control.setRank(4);
    sim.control.setMissedCounter(38); // 40 % of a budget of 95
    sim.control.openProposal({ endsAtMs: Date.now() + 20 * 3_600_000, title: 'Community pool spend' });
    const height = sim.chain.height + 2000;
    sim.control.scheduleUpgrade({ name: 'v3.1.0', height });
    const valoper = sim.chain.ours.valoper;
    for (const [type, settings] of [
        ['validatorOutOfActiveSet', { valoper_address: valoper }],
        ['slashingWindow', { valoper_address: valoper }],
        ['governanceVote', { valoper_address: valoper }],
        ['upgradeWatch', {}],
        ['signMissCheck', { valoper_address: valoper }],
    ] as const) {
        await monitor(type, type, { ...settings, sleep_duration_seconds: 2 });
    }
    // The page reads the card once and then every 30 s; wait until the engine saved every figure.
    const deadline = Date.now() + 90_000;
    for (;;) {
        const card = await call<ValidatorCard>('GET', `/configurations/${configurationId}/validator`);
        const v = card.validators[0];
        if (v?.rank && v.jail_budget && v.proposals?.length && card.upgrade?.plan) break;
        if (Date.now() > deadline) throw new Error(`the card stayed incomplete: ${JSON.stringify(card)}`);
        await new Promise((r) => setTimeout(r, 500));
    }

    const { page } = browser;
    await signIn(page, server.url, 'admin', ADMIN_PASSWORD);
    await page.goto(`${server.url}/configurations/${configurationId}`);
    await page.getByRole('heading', { name: 'our-validator' }).waitFor({ timeout: 30_000 });
    await page.getByText('Rank: 4 / 6').waitFor();
    await page.getByText('Commission: 5 %').waitFor();
    await page.getByText('Jail budget: 38 of 95 missed (40 %)').waitFor();
    expect(await page.getByRole('progressbar', { name: 'Jail budget used' }).getAttribute('aria-valuenow')).toBe('40');
    await page.getByText('57 blocks left · not missing now').waitFor();
    await page.getByText('#1 Community pool spend').waitFor();
    await page.getByText('Not voted').waitFor();
    await page.getByText(/ends in (19|20)\.\d h/).waitFor();
    await page
        .getByText(
            new RegExp(`Scheduled upgrade: v3\\.1\\.0 at height ${height}, expected .* \\(in [\\d.]+ (min|h)\\)`)
        )
        .waitFor();
    await page.getByText('App version: v0.50.9').waitFor();

    // The signing grid, live: three blocks without our signature appear as missed cells while the page is open.
    await page.getByRole('img', { name: /^Last \d+ blocks .*: \d+ signed, 0 missed/ }).waitFor({ timeout: 30_000 });
    sim.control.missSignatures({ mode: 'absent', blocks: 3 });
    const grid = page.getByRole('img', {
        name: /^Last \d+ blocks .*, 3 missed: [\d,]+, [\d,]+, [\d,]+, \d+ proposed; read through hub-validator$/,
    });
    // Three blocks without our signature, then the card's next refresh: a loaded CI machine needs more than 30 s.
    await grid.waitFor({ timeout: 60_000 });
    expect(await grid.locator('[data-state="missed"]').count()).toBe(3);
    await page.getByText(/^Last \d+ blocks .*, 3 missed: /).waitFor();
});
