import { priceFeederMissCountCheck } from '../../../../server/engine/checks/priceFeederMissCount';
import { oracleMissPathTemplate } from '../../../../server/engine/checks/oracle-paths';
import { fixture, routes, startLoopback } from '../../check-support';
import { fail, makeCtx, okv, run } from './ctx';

const T0 = Date.UTC(2025, 0, 1);
const settings = { miss_tolerance: 5, miss_tolerance_period_seconds: 60 };
const c = (counter: number) => okv({ counter });
const levels = (...readings: ReturnType<typeof c | typeof fail>[]) =>
    run(
        priceFeederMissCountCheck,
        settings,
        readings.map((reading, i) => ({ at: T0 + i * 5000, reading }))
    );

describe('priceFeederMissCount evaluate', () => {
    it.each([
        ['healthy: a steady counter', [c(3), c(3), c(3)], ['ok', 'ok', 'ok']],
        ['rise below tolerance warns', [c(3), c(5)], ['ok', 'warning']],
        ['rise at tolerance errors', [c(3), c(5), c(8)], ['ok', 'warning', 'error']],
        ['window reset re-baselines (no negative delta)', [c(50), c(0), c(1)], ['ok', 'ok', 'warning']],
        ['unreachable warns, then errors after 3', [fail('x'), fail('x'), fail('x')], ['warning', 'warning', 'error']],
    ] as const)('%s', (_name, readings, expected) => {
        expect(levels(...readings).map((v) => v.level)).toEqual(expected);
    });

    it('names the rise and the counter', () => {
        expect(levels(c(3), c(5)).at(-1)?.message).toBe(
            'Oracle miss counter rose by 2 in the period (tolerance 5); counter now 5'
        );
    });

    it('resets after the period without a rise', () => {
        const out = run(priceFeederMissCountCheck, settings, [
            { at: T0, reading: c(1) },
            { at: T0 + 1000, reading: c(2) },
            { at: T0 + 62_000, reading: c(2) },
        ]);
        expect(out.map((v) => v.level)).toEqual(['ok', 'warning', 'ok']);
    });
});

it('rises across a clock step keep counting', () => {
    const out = run(priceFeederMissCountCheck, settings, [
        { at: T0, reading: c(1) },
        { at: T0 + 1000, reading: c(4) },
        { at: T0 + 600_000, reading: c(6) },
    ]);
    expect(out.map((v) => v.level)).toEqual(['ok', 'warning', 'error']);
});

describe('oracle path registry', () => {
    it.each([
        ['kujira', '/oracle/validators/{valoper}/miss'],
        ['umee', '/umee/oracle/v1/validators/{valoper}/miss'],
        ['ux', '/umee/oracle/v1/validators/{valoper}/miss'],
        ['ojo', '/ojo/oracle/v1/validators/{valoper}/miss'],
        ['terra', '/terra/oracle/v1beta1/validators/{valoper}/miss'],
        ['terraclassic', '/terra/oracle/v1beta1/validators/{valoper}/miss'],
        ['terra-classic', '/terra/oracle/v1beta1/validators/{valoper}/miss'],
        ['nibiru', '/nibiru/oracle/v1beta1/validators/{valoper}/miss'],
        ['kujiratestnet', '/oracle/validators/{valoper}/miss'],
        ['cosmoshub', null],
    ])('%s', (chain, path) => {
        expect(oracleMissPathTemplate(chain, null)).toBe(path);
    });
});

describe('priceFeederMissCount read', () => {
    const valoper = 'kujiravaloper1q6d3d089hg59x6gcx92uumx70s5y5wadx0x0zy';
    it('reads the chain path, honours oracle_path and explains unknown chains', async () => {
        const lb = await startLoopback(
            routes({
                [`/oracle/validators/${valoper}/miss`]: fixture('derived-kujira-oracle-miss.json'),
                [`/custom/${valoper}/miss`]: fixture('derived-umee-oracle-miss.json'),
            })
        );
        const kujira = { name: 'kujira', bech32Prefix: 'kujira' };
        expect(
            await priceFeederMissCountCheck.read(
                makeCtx('priceFeederMissCount', { valoper_address: valoper }, { rest: lb.url }, kujira)
            )
        ).toEqual({ counter: 12 });
        const custom = { valoper_address: valoper, oracle_path: '/custom/{valoper}/miss' };
        expect(
            await priceFeederMissCountCheck.read(
                makeCtx('priceFeederMissCount', custom, { rest: lb.url }, { name: 'sei', bech32Prefix: null })
            )
        ).toEqual({ counter: 3 });
        await expect(
            priceFeederMissCountCheck.read(
                makeCtx(
                    'priceFeederMissCount',
                    { valoper_address: valoper },
                    { rest: lb.url },
                    { name: 'cosmoshub', bech32Prefix: 'cosmos' }
                )
            )
        ).rejects.toThrow('No oracle miss-counter path is known for chain cosmoshub');
        await lb.close();
    });
});
