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
