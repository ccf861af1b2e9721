import { type SlashingWindowMeasurement, slashingWindowCheck } from '../../../../server/engine/checks/slashingWindow';
import { consensusAddress } from '../../../../server/engine/addresses';
import { fixture, fixtureJson, routes, startLoopback } from '../../check-support';
import { fail, makeCtx, okv, run } from './ctx';

const T0 = Date.UTC(2025, 0, 1);
const MIN = 60_000;
// cosmoshub-4: window 10000, min signed 0.05 → a budget of 9500 misses (protocols.md §10.7).
const reading = (missed: number, extra: Partial<SlashingWindowMeasurement> = {}) =>
    okv<SlashingWindowMeasurement>({
        valoper: 'cosmosvaloper1x',
        moniker: 'Quokka Stake',
        missed,
        signedBlocksWindow: 10000,
        budget: 9500,
        jailed: false,
        jailedUntilMs: null,
        tombstoned: false,
        ...extra,
    });

describe('slashingWindow evaluate', () => {
    it.each([
        [8, 'ok', null],
        [2374, 'ok', null],
        [
            2375,
            'warning',
            'Validator Quokka Stake missed 2375 of 9500 blocks allowed in the slashing window of 10000 (25.0 % of the jail budget); 7125 left; not missing now',
        ],
        [
            4750,
            'error',
            'Validator Quokka Stake missed 4750 of 9500 blocks allowed in the slashing window of 10000 (50.0 % of the jail budget); 4750 left; not missing now',
        ],
    ] as const)('%i missed on a first reading → %s', (missed, level, message) => {
        expect(run(slashingWindowCheck, {}, [{ at: T0, reading: reading(missed) }])[0]).toMatchObject({
            level,
            message,
        });
    });

    it('honours its percent settings', () => {
        const out = run(slashingWindowCheck, { warning_percent: 1, error_percent: 2 }, [
            { at: T0, reading: reading(100) },
            { at: T0 + MIN, reading: reading(190) },
        ]);
        expect(out.map((o) => o.level)).toEqual(['warning', 'error']);
    });

    it('gives the time to jail from the last 10 minutes of readings', () => {
        // 600 misses in 10 minutes = 1 a second; 5900 left → the 5901st jails, 98 min away.
        const out = run(slashingWindowCheck, {}, [
            { at: T0, reading: reading(3000) },
            { at: T0 + 5 * MIN, reading: reading(3300) },
            { at: T0 + 10 * MIN, reading: reading(3600) },
            { at: T0 + 20 * MIN, reading: reading(5350) },
        ]);
        expect(out[2]?.message).toMatch(/5900 left; jailed in about 98 min at the current miss rate$/);
        // Only the reading at T0+10 min is within 10 minutes: 1750 in 10 min → 4151 / 2.9 per s ≈ 24 min.
        expect(out[3]).toMatchObject({
            level: 'error',
            message: expect.stringMatching(/4150 left; jailed in about 24 min/),
        });
    });

    it('a flat or falling counter is "not missing now"', () => {
        const out = run(slashingWindowCheck, {}, [
            { at: T0, reading: reading(3000) },
            { at: T0 + MIN, reading: reading(3100) },
            { at: T0 + 2 * MIN, reading: reading(2900) },
            { at: T0 + 3 * MIN, reading: reading(2900) },
        ]);
        expect(out[1]?.message).toMatch(/jailed in about/);
        expect(out[2]?.message).toMatch(/not missing now$/);
        expect(out[3]?.message).toMatch(/not missing now$/);
    });

    it('tombstoned and jailed are Error whatever the counter; a jail reset is no recovery', () => {
        const tomb = run(slashingWindowCheck, {}, [
            { at: T0, reading: reading(0, { tombstoned: true, jailed: true, jailedUntilMs: Date.UTC(9999, 11, 31) }) },
        ]);
        expect(tomb[0]).toMatchObject({
            level: 'error',
            message: 'Validator Quokka Stake is tombstoned (slashed for double signing; permanently jailed)',
        });
        const jailed = run(slashingWindowCheck, {}, [
            { at: T0, reading: reading(9000) },
            { at: T0 + MIN, reading: reading(0, { jailed: true, jailedUntilMs: T0 + 11 * MIN }) },
        ]);
        expect(jailed[1]).toMatchObject({
            level: 'error',
            message: 'Validator Quokka Stake is jailed until 2025-01-01T00:11:00Z',
        });
    });

    it('a failed read keeps an Error', () => {
        const out = run(slashingWindowCheck, {}, [
            { at: T0, reading: reading(6000) },
            { at: T0 + MIN, reading: fail('REST service http://n refused the connection') },
        ]);
        expect(out.map((o) => o.level)).toEqual(['error', 'error']);
    });
});

describe('slashingWindow read', () => {
    it('reads the reference signing info and params: 8 of 9500 used', async () => {
        const single = fixtureJson<{
            validator: { operator_address: string; consensus_pubkey: { '@type': string; key: string } };
        }>('cosmos-staking-validator-single-cosmoshub-4.json');
        const v = single.validator;
        const { valcons } = consensusAddress(
            { type: v.consensus_pubkey['@type'], key: v.consensus_pubkey.key },
            'cosmos'
        );
        const lb = await startLoopback(
            routes({
                [`/cosmos/staking/v1beta1/validators/${v.operator_address}`]: fixture(
                    'cosmos-staking-validator-single-cosmoshub-4.json'
                ),
                [`/cosmos/slashing/v1beta1/signing_infos/${valcons}`]: fixture(
                    'cosmos-slashing-signing-info-cosmoshub-4.json'
                ),
                '/cosmos/slashing/v1beta1/params': fixture('cosmos-slashing-params-cosmoshub-4.json'),
            })
        );
        const ctx = makeCtx('slashingWindow', { valoper_address: v.operator_address }, { rest: lb.url });
        const r = await slashingWindowCheck.read(ctx);
        expect(r).toMatchObject({ missed: 8, budget: 9500, signedBlocksWindow: 10000, tombstoned: false });
        const out = slashingWindowCheck.evaluate(undefined, okv(r), {}, T0);
        expect(out.verdict.level).toBe('ok');
        expect(out.memory.last).toMatchObject({ missed: 8, budget: 9500, left: 9492, msToJail: null });
        await lb.close();
    });

    it('a validator without signing info is an error sentence', async () => {
        const single = fixtureJson<{ validator: { operator_address: string } }>(
            'cosmos-staking-validator-single-cosmoshub-4.json'
        );
        const lb = await startLoopback(
            routes({
                [`/cosmos/staking/v1beta1/validators/${single.validator.operator_address}`]: fixture(
                    'cosmos-staking-validator-single-cosmoshub-4.json'
                ),
                '/cosmos/slashing/v1beta1/params': fixture('cosmos-slashing-params-cosmoshub-4.json'),
            })
        );
        const ctx = makeCtx('slashingWindow', { valoper_address: single.validator.operator_address }, { rest: lb.url });
        await expect(slashingWindowCheck.read(ctx)).rejects.toThrow(/REST service/);
        await lb.close();
    });
});
