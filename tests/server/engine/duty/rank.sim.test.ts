import { validatorOutOfActiveSetCheck } from '../../../../server/engine/checks/validatorOutOfActiveSet';
import { type ChainSim, startChainSim } from '../../../../tools/chain-sim';
import { makeCtx } from '../checks/ctx';

/** The active-set rank read from the simulator's staking module, moved with its rank control. */
let sim: ChainSim;

beforeAll(async () => {
    sim = await startChainSim({ autoStart: false, validatorCount: 10, maxValidators: 10 });
});
afterAll(() => sim.close());

it('a rank within rank_warning_margin seats of max_validators is a Warning naming rank/max and the margin', async () => {
    const ctx = makeCtx(
        'validatorOutOfActiveSet',
        { valoper_address: sim.chain.ours.valoper },
        { rest: sim.nodes[0]?.restUrl ?? '' }
    );
    const judge = async () => {
        const value = await validatorOutOfActiveSetCheck.read(ctx);
        return { value, ...validatorOutOfActiveSetCheck.evaluate(undefined, { ok: true, value }, {}, Date.now()) };
    };
    sim.control.setRank(3);
    const safe = await judge();
    expect(safe.value.rank).toMatchObject({ rank: 3, maxValidators: 10, bondedCount: 10, denom: 'stake' });
    expect(safe.verdict.level).toBe('ok');

    sim.control.setRank(7);
    const edge = await judge();
    const tokens = sim.chain.ours.state.tokens;
    const last = sim.chain.validators.map((v) => v.state.tokens).sort((a, b) => (a < b ? -1 : 1))[0] ?? 0n;
    expect(edge.verdict).toEqual({
        level: 'warning',
        message: `Validator our-validator ranks 7/10 by stake, 3 seats from the edge of the active set; ${tokens - last} stake above the last active validator (rank 10)`,
    });
    expect(edge.memory.last?.rank?.commission).toBe('0.050000000000000000');
});
