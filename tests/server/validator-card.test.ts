import type { ValidatorCard } from '../../common/validator-card';
import { type ChainSim, startChainSim } from '../../tools/chain-sim';
import { createWorld, type World } from './config-fixtures';
import { waitFor } from './seed';

/** The Validator card end to end: monitors made through the API, the engine reading the simulator, the card's API. */
let w: World;
let sim: ChainSim;

beforeAll(async () => {
    sim = await startChainSim({ blockTimeMs: 300, validatorCount: 10, maxValidators: 10 });
    w = await createWorld({ engineEnabled: true, answerCacheMs: 0 });
});
afterAll(async () => {
    await w?.t.close();
    await sim?.close();
});

it('shows the figures the simulator set, and only to the configuration company', { timeout: 60_000 }, async () => {
    const token = w.admin.access;
    const cfg = await w.configuration(token, { name: 'Sim hub' });
    const srv = await w.server(token, cfg, { address: 'http://127.0.0.1' });
    const svc = await w.call('POST', '/api/services', token, {
        name: 'rest',
        type: 'rest',
        address: sim.nodes[0]?.restUrl,
        server_id: srv,
    });
    expect(svc.statusCode).toBe(201);
    const valoper = sim.chain.ours.valoper;
    sim.control.setRank(8);
    sim.control.setMissedCounter(19); // of a budget of 95 (window 100, min signed 0.05)
    const proposal = sim.control.openProposal({ endsAtMs: Date.now() + 30 * 3_600_000, title: 'Fund the pool' });
    const upgradeHeight = sim.chain.height + 5000;
    sim.control.scheduleUpgrade({ name: 'v2.0.0', height: upgradeHeight });
    for (const [type, settings] of [
        ['validatorOutOfActiveSet', { valoper_address: valoper, sleep_duration_seconds: 1 }],
        ['slashingWindow', { valoper_address: valoper, sleep_duration_seconds: 1 }],
        ['governanceVote', { valoper_address: valoper, sleep_duration_seconds: 1 }],
        ['upgradeWatch', { sleep_duration_seconds: 1 }],
    ] as const) {
        const res = await w.call('POST', '/api/monitors', token, {
            name: type,
            configuration_id: cfg,
            server_id: srv,
            type,
            configuration_object: JSON.stringify(settings),
        });
        expect(res.statusCode).toBe(201);
    }
    const card = () => w.call('GET', `/api/configurations/${cfg}/validator`, token);
    const read = await waitFor(
        'every figure read',
        async () => {
            const body = (await card()).json() as ValidatorCard;
            const v = body.validators[0];
            return v?.rank && v.jail_budget && v.proposals && body.upgrade ? body : null;
        },
        30_000
    );
    expect(read.validators).toHaveLength(1);
    expect(read.validators[0]).toMatchObject({
        valoper,
        moniker: 'our-validator',
        status: 'BOND_STATUS_BONDED',
        jailed: false,
        rank: 8,
        max_validators: 10,
        denom: 'stake',
        commission_percent: 5,
        tokens: String(sim.chain.ours.state.tokens),
        jail_budget: { missed: 19, budget: 95, left: 76, used_percent: 20, jailed: false, tombstoned: false },
        proposals: [{ id: String(proposal), title: 'Fund the pool', voted: false, options: [] }],
    });
    expect(read.validators[0]?.voting_power_percent).toBeGreaterThan(0);
    expect(read.upgrade).toMatchObject({
        plan: { name: 'v2.0.0', height: upgradeHeight, eta: expect.stringMatching(/Z$/) },
        app_version: 'v0.50.9',
    });

    sim.control.castVote(proposal);
    await waitFor('the vote on the card', async () => (await card()).json().validators[0]?.proposals?.[0]?.voted);

    expect((await w.call('GET', `/api/configurations/${cfg}/validator`, w.other.access)).statusCode).toBe(404);
    const empty = await w.configuration(token, { name: 'Plain' });
    expect((await w.call('GET', `/api/configurations/${empty}/validator`, token)).json()).toEqual({
        configuration_id: empty,
        validators: [],
        upgrade: null,
    });
});
