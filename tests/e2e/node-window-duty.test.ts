import type { ChainSim } from '../../tools/chain-sim';
import { startChainSim } from '../../tools/chain-sim';
import type { Console } from './harness';
import { ADMIN_PASSWORD, openBrowser, signIn, startConsole } from './harness';
import { seedValidator } from './seed';

/**
 * A node's maintenance window mutes its node-health monitors only: the validator jailed while the node restarts
 * still opens an incident on the dashboard, while the node's own URL check shows as silenced.
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

it('a validator jailed during its node window still pages; the node check is held', { timeout: 180_000 }, async () => {
    const { call, serverId, monitor } = await seedValidator(server.url, sim, {
        company: 'Window Validators',
        configuration: 'Hub',
        services: ['rest', 'rpc'],
    });
    await call('POST', '/maintenance-windows', {
        server_id: serverId,
        starts_at: new Date(Date.now() - 60_000).toISOString(),
        ends_at: new Date(Date.now() + 3_600_000).toISOString(),
        reason: 'Restarting the node',
    });
    for (const [name, type, settings] of [
        [
            'Active set',
            'validatorOutOfActiveSet',
            { valoper_address: sim.chain.ours.valoper, sleep_duration_seconds: 2 },
        ],
        ['Node RPC', 'urlCheck', { address: 'http://127.0.0.1:9/', allowed_attempts: 0 }],
    ] as const) {
        await monitor(name, type, settings);
    }
    sim.control.jail();

    const { page } = browser;
    await signIn(page, server.url, 'admin', ADMIN_PASSWORD);
    await page.goto(`${server.url}/`);
    const duty = page.getByRole('row', { name: /Active set/ });
    await duty.getByRole('link', { name: /^Incident open for/ }).waitFor({ timeout: 90_000 });
    expect(await duty.getByText(/^Silenced until/).count()).toBe(0);
    const node = page.getByRole('row', { name: /Node RPC/ });
    await node.getByText(/^Silenced until/).waitFor({ timeout: 60_000 });
});
