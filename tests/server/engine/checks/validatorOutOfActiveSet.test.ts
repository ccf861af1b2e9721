import { consensusAddress } from '../../../../server/engine/addresses';
import {
    type ActiveSetMeasurement,
    validatorOutOfActiveSetCheck,
} from '../../../../server/engine/checks/validatorOutOfActiveSet';
import { fixture, fixtureJson, routes, startLoopback } from '../../check-support';
import { fail, makeCtx, okv, run } from './ctx';

const T0 = Date.UTC(2025, 0, 1);
const v = (extra: Partial<ActiveSetMeasurement>) =>
    okv<ActiveSetMeasurement>({
        valoper: 'cosmosvaloper1x',
        moniker: 'Castlenode',
        status: 'BOND_STATUS_BONDED',
        jailed: false,
        tombstoned: null,
        jailedUntilMs: null,
        ...extra,
    });
const one = (reading: ReturnType<typeof v | typeof fail>) =>
    run(validatorOutOfActiveSetCheck, {}, [{ at: T0, reading }])[0];

describe('validatorOutOfActiveSet evaluate', () => {
    it.each([
        ['bonded', {}, 'ok', null],
        [
            'jailed until',
            { jailed: true, status: 'BOND_STATUS_UNBONDING', jailedUntilMs: T0 + 3_600_000 },
            'error',
            'Validator Castlenode is jailed until 2025-01-01T01:00:00Z and is unbonding (out of the active set)',
        ],
        [
            'unbonding',
            { status: 'BOND_STATUS_UNBONDING' },
            'error',
            'Validator Castlenode is unbonding (out of the active set)',
        ],
        [
            'unbonded',
            { status: 'BOND_STATUS_UNBONDED' },
            'error',
            'Validator Castlenode is unbonded (out of the active set)',
        ],
        [
            'tombstoned',
            { jailed: true, status: 'BOND_STATUS_UNBONDED', tombstoned: true },
            'error',
            'Validator Castlenode is tombstoned (slashed for double signing; permanently out of the active set)',
        ],
    ] as const)('%s, even on the first observation', (_name, extra, level, message) => {
        expect(one(v(extra))).toMatchObject({ level, message });
    });

    it('recovers when bonded again, and a read failure never turns its Error into Warning', () => {
        const out = run(validatorOutOfActiveSetCheck, {}, [
            { at: T0, reading: v({ status: 'BOND_STATUS_UNBONDED' }) },
            { at: T0 + 60_000, reading: fail('REST service http://n refused the connection') },
            { at: T0 + 120_000, reading: v({}) },
        ]);
        expect(out.map((x) => x.level)).toEqual(['error', 'error', 'ok']);
    });
});

describe('validatorOutOfActiveSet read', () => {
    it('reads bonded and jailed validators, with the signing info for the reason', async () => {
        type V = { operator_address: string; jailed: boolean; consensus_pubkey: { '@type': string; key: string } };
        const list = fixtureJson<{ validators: V[] }>('cosmos-staking-validators-cosmoshub-4-trimmed.json');
        const jailed = list.validators.find((x) => x.jailed);
        const bonded = list.validators.find((x) => !x.jailed);
        if (!jailed || !bonded) throw new Error('fixture changed');
        const { valcons } = consensusAddress(
            { type: jailed.consensus_pubkey['@type'], key: jailed.consensus_pubkey.key },
            'cosmos'
        );
        const lb = await startLoopback(
            routes({
                [`/cosmos/staking/v1beta1/validators/${bonded.operator_address}`]: JSON.stringify({
                    validator: bonded,
                }),
                [`/cosmos/staking/v1beta1/validators/${jailed.operator_address}`]: JSON.stringify({
                    validator: jailed,
                }),
                [`/cosmos/slashing/v1beta1/signing_infos/${valcons}`]: fixture(
                    'cosmos-slashing-signing-info-cosmoshub-4.json'
                ),
            })
        );
        const read = (valoper: string) =>
            validatorOutOfActiveSetCheck.read(
                makeCtx('validatorOutOfActiveSet', { valoper_address: valoper }, { rest: lb.url })
            );
        expect(await read(bonded.operator_address)).toMatchObject({ status: 'BOND_STATUS_BONDED', jailed: false });
        const r = await read(jailed.operator_address);
        expect(r).toMatchObject({ jailed: true, tombstoned: false });
        expect(one(okv(r))?.level).toBe('error');
        await lb.close();
    });
});

describe('validatorOutOfActiveSet rank_warning_margin', () => {
    // The cosmoshub-4 figures of computed-cosmoshub-4-bonded-rank-summary.json: 180 of 180 seats taken.
    const ranked = (rank: number, tokens = '195312402881') =>
        v({
            moniker: '🐹 Quokka Stake',
            rank: {
                rank,
                maxValidators: 180,
                bondedCount: 180,
                denom: 'uatom',
                tokens,
                totalBonded: '270000000000000',
                lastActiveTokens: '49582427947',
                commission: '0.050000000000000000',
            },
        });
    const judge = (reading: ReturnType<typeof v>, settings: Record<string, unknown> = {}) =>
        run(validatorOutOfActiveSetCheck, settings, [{ at: T0, reading }])[0];

    it.each([
        [142, {}, 'ok'],
        [174, {}, 'ok'],
        [175, {}, 'warning'],
        [180, {}, 'warning'],
        [170, { rank_warning_margin: 10 }, 'warning'],
        [180, { rank_warning_margin: 0 }, 'ok'],
    ] as const)('rank %i with %o → %s', (rank, settings, level) => {
        expect(judge(ranked(rank), settings)?.level).toBe(level);
    });

    it('names rank/max and the stake margin over the last active validator', () => {
        expect(judge(ranked(176, '59582427947'))?.message).toBe(
            'Validator 🐹 Quokka Stake ranks 176/180 by stake, 4 seats from the edge of the active set; 10000000000 uatom above the last active validator (rank 180)'
        );
    });

    it('a free seat is no rank risk', () => {
        const free = v({
            rank: {
                rank: 6,
                maxValidators: 6,
                bondedCount: 5,
                denom: 'uatom',
                tokens: '1',
                totalBonded: '10',
                lastActiveTokens: null,
                commission: null,
            },
        });
        expect(judge(free)?.level).toBe('ok');
    });

    it('reads the rank from the bonded set sorted by tokens, not in answer order', async () => {
        const quokka = 'cosmosvaloper1xqz9pemz5e5zycaa89kys5aw6m8rhgsvw4328e';
        const bonded = fixtureJson<{ validators: { operator_address: string }[] }>(
            'cosmos-staking-validators-bonded-cosmoshub-4-trimmed.json'
        );
        const own = bonded.validators.find((x) => x.operator_address === quokka);
        const params = fixtureJson<{ params: Record<string, unknown> }>('cosmos-staking-params-cosmoshub-4.json');
        const serve = (maxValidators: number) =>
            startLoopback(
                routes({
                    [`/cosmos/staking/v1beta1/validators/${quokka}`]: JSON.stringify({ validator: own }),
                    '/cosmos/staking/v1beta1/validators': fixture(
                        'cosmos-staking-validators-bonded-cosmoshub-4-trimmed.json'
                    ),
                    '/cosmos/staking/v1beta1/params': JSON.stringify({
                        params: { ...params.params, max_validators: maxValidators },
                    }),
                })
            );
        const read = async (maxValidators: number) => {
            const lb = await serve(maxValidators);
            try {
                return await validatorOutOfActiveSetCheck.read(
                    makeCtx('validatorOutOfActiveSet', { valoper_address: quokka }, { rest: lb.url })
                );
            } finally {
                await lb.close();
            }
        };
        // 180 seats, 6 bonded in the trimmed answer: rank 4, a free seat.
        const roomy = await read(180);
        expect(roomy.rank).toMatchObject({ rank: 4, maxValidators: 180, bondedCount: 6, lastActiveTokens: null });
        expect(one(okv(roomy))?.level).toBe('ok');
        // 6 seats: all taken, Huobi holds the last one; rank 4 is within 5 seats.
        const full = await read(6);
        expect(full.rank).toMatchObject({ rank: 4, lastActiveTokens: '49582427947', denom: 'uatom' });
        expect(one(okv(full))).toMatchObject({
            level: 'warning',
            message:
                'Validator 🐹 Quokka Stake ranks 4/6 by stake, 2 seats from the edge of the active set; 145729974934 uatom above the last active validator (rank 6)',
        });
    });
});
