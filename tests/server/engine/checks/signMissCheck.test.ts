import type http from 'node:http';
import { type SignMissMeasurement, signMissCheckCheck } from '../../../../server/engine/checks/signMissCheck';
import { fixture, fixtureJson, startLoopback } from '../../check-support';
import { fail, makeCtx, okv, run } from './ctx';

const T0 = Date.UTC(2025, 0, 1);
const settings = { miss_tolerance: 3, miss_tolerance_period_seconds: 100, sleep_duration_seconds: 5 };
const base: SignMissMeasurement = {
    moniker: 'alice',
    valoper: 'cosmosvaloper1secvjzt473ddvgtsv2lwrpe4r88hyrma7dtl87',
    hex: 'F96E556F296977D9B6F53E67F5390DEC151B20FF',
    valcons: 'cosmosvalcons1l9h92mefd9mandh48enl2wgdas23kg8l0l05hp',
    status: 'BOND_STATUS_BONDED',
    jailed: false,
    signing: { missed: 8, jailedUntilMs: null, tombstoned: false },
    window: { signedBlocksWindow: 10000, maxMissed: 9500 },
    blocks: [],
    latestHeight: 100,
    skipped: 0,
};
/** Blocks from `from` on; 'x' = missed, '.' = signed. */
const blocks = (from: number, pattern: string, extra: Partial<SignMissMeasurement> = {}) =>
    okv<SignMissMeasurement>({
        ...base,
        blocks: [...pattern].map((c, i) => ({ height: from + i, signed: c === '.' })),
        latestHeight: from + pattern.length,
        ...extra,
    });
const steps = (...readings: ReturnType<typeof blocks | typeof fail>[]) =>
    readings.map((reading, i) => ({ at: T0 + i * 5000, reading }));

describe('signMissCheck evaluate', () => {
    it('healthy while every block is signed', () => {
        expect(run(signMissCheckCheck, settings, steps(blocks(1, '...'), blocks(4, '..'))).map((v) => v.level)).toEqual(
            ['ok', 'ok']
        );
    });

    it('warns below the tolerance with the counts and the slashing window', () => {
        const [v] = run(signMissCheckCheck, settings, steps(blocks(1, '.x.x')));
        expect(v).toMatchObject({
            level: 'warning',
            message:
                'Missed 2 of the last 3 blocks (tolerance 3); 8 missed in the slashing window of 10000 (jail above 9500)',
        });
    });

    it('errors at the tolerance and never counts a height twice', () => {
        const out = run(signMissCheckCheck, settings, steps(blocks(1, 'xx'), blocks(1, 'xx'), blocks(3, 'x')));
        expect(out.map((v) => v.level)).toEqual(['warning', 'warning', 'error']);
        expect(out[2]?.message).toMatch(/^Missed 3 of the last 3 blocks/);
    });

    it('resets after the period without a miss', () => {
        const out = run(signMissCheckCheck, settings, [
            { at: T0, reading: blocks(1, 'x') },
            { at: T0 + 50_000, reading: blocks(2, '.') },
            { at: T0 + 101_000, reading: blocks(3, '.') },
        ]);
        expect(out.map((v) => v.level)).toEqual(['warning', 'warning', 'ok']);
    });

    it.each([
        [
            'jailed',
            {
                jailed: true,
                status: 'BOND_STATUS_UNBONDING',
                signing: { missed: 0, jailedUntilMs: T0 + 600_000, tombstoned: false },
            },
            'error',
            'Validator alice is jailed until 2025-01-01T00:10:00Z',
        ],
        [
            'jailed, period over',
            { jailed: true, signing: { missed: 0, jailedUntilMs: T0 - 1000, tombstoned: false } },
            'error',
            'needs an unjail transaction',
        ],
        [
            'tombstoned',
            { jailed: true, signing: { missed: 0, jailedUntilMs: Date.UTC(9999, 11, 31), tombstoned: true } },
            'error',
            'is tombstoned',
        ],
        ['unbonded', { status: 'BOND_STATUS_UNBONDED', blocks: null }, 'warning', 'is unbonded, not in the active set'],
        [
            'close to jail',
            { signing: { missed: 9000, jailedUntilMs: null, tombstoned: false } },
            'error',
            'Close to jail: 9000 of 9500',
        ],
    ] as const)('%s', (_name, extra, level, message) => {
        const [v] = run(signMissCheckCheck, settings, steps(blocks(1, '.', extra as Partial<SignMissMeasurement>)));
        expect(v?.level).toBe(level);
        expect(v?.message).toContain(message);
    });

    it('counter mode (no rpc): rises are misses, a fall re-baselines', () => {
        const counter = (missed: number) =>
            okv<SignMissMeasurement>({
                ...base,
                blocks: null,
                latestHeight: null,
                signing: { missed, jailedUntilMs: null, tombstoned: false },
            });
        const out = run(signMissCheckCheck, settings, steps(counter(8), counter(10), counter(2), counter(3)));
        expect(out.map((v) => v.level)).toEqual(['ok', 'warning', 'warning', 'error']);
        expect(out[3]?.message).toMatch(/^On-chain missed-blocks counter rose by 3 in the period \(tolerance 3\)/);
    });

    it('an unreadable node warns, errors after 3 in a row, and never flips an Error to Warning', () => {
        const e = fail('REST service http://n/x refused the connection');
        expect(run(signMissCheckCheck, settings, steps(e, e, e)).map((v) => v.level)).toEqual([
            'warning',
            'warning',
            'error',
        ]);
        const out = run(signMissCheckCheck, settings, steps(blocks(1, 'xxx'), e));
        expect(out.map((v) => v.level)).toEqual(['error', 'error']);
        expect(out[1]?.message).toContain('the last check could not read the node');
    });

    it("keeps the signing grid's last blocks, where a block it proposed without its signature is a miss", () => {
        const proposedMissed = okv<SignMissMeasurement>({
            ...base,
            blocks: [
                { height: 1, signed: true },
                { height: 2, signed: true, proposed: true },
                { height: 3, signed: false, proposed: true },
                { height: 4, signed: false },
            ],
            latestHeight: 5,
        });
        const { memory } = signMissCheckCheck.evaluate(undefined, proposedMissed, settings, T0);
        expect(memory.grid).toEqual([
            [1, 0],
            [2, 2],
            [3, 1],
            [4, 1],
        ]);
    });

    it('a chain restarted below the counted height counts afresh', () => {
        const out = run(signMissCheckCheck, settings, steps(blocks(500, '.'), blocks(5, 'x')));
        expect(out[1]?.level).toBe('warning');
    });
});

describe('signMissCheck read', () => {
    const valoper = 'cosmosvaloper1secvjzt473ddvgtsv2lwrpe4r88hyrma7dtl87';
    const ours = 'F96E556F296977D9B6F53E67F5390DEC151B20FF';
    const other = {
        block_id_flag: 2,
        validator_address: 'D68EEC0D2E8248F1EC64CDB585EDB61ECA432BD8',
        timestamp: '2024-01-01T00:00:00Z',
        signature: 'AA==',
    };
    const sig = (flag: number) => ({
        block_id_flag: flag,
        validator_address: flag === 1 ? '' : ours,
        timestamp: '2024-01-01T00:00:00Z',
        signature: flag === 1 ? null : 'AA==',
    });
    /** Signatures of our validator per height: 1 absent, 2 commit, 3 nil, 0 not listed at all. */
    const flags: Record<number, number> = { 12: 2, 13: 1, 14: 3, 15: 0, 16: 2, 17: 2, 18: 2, 19: 2 };
    let latest = 13;

    const handler: http.RequestListener = (req, res) => {
        const url = new URL(req.url ?? '/', 'http://x');
        const json = (body: unknown) => res.end(JSON.stringify(body));
        const validators = fixtureJson<{ validators: unknown[] }>('cosmos-staking-validators-local-sdk-0.50.json');
        if (url.pathname === `/cosmos/staking/v1beta1/validators/${valoper}`)
            return json({ validator: validators.validators[0] });
        if (url.pathname === '/cosmos/slashing/v1beta1/params')
            return res.end(fixture('cosmos-slashing-params-cosmoshub-4.json'));
        if (
            url.pathname.startsWith(
                '/cosmos/slashing/v1beta1/signing_infos/cosmosvalcons1l9h92mefd9mandh48enl2wgdas23kg8l0l05hp'
            )
        ) {
            return res.end(fixture('cosmos-slashing-signing-info-cosmoshub-4.json'));
        }
        if (url.pathname === '/status') {
            const s = fixtureJson<{ result: { sync_info: { latest_block_height: string } } }>(
                'cometbft-0.38-status.json'
            );
            s.result.sync_info.latest_block_height = String(latest);
            return json(s);
        }
        if (url.pathname === '/commit') {
            const h = Number(url.searchParams.get('height'));
            const f = flags[h] ?? 2;
            const signatures = f === 0 ? [other] : [other, sig(f)];
            return json({
                jsonrpc: '2.0',
                id: -1,
                result: { signed_header: { commit: { height: String(h), round: 0, signatures } }, canonical: true },
            });
        }
        res.writeHead(404);
        res.end('not found');
    };

    it('reads new canonical commits: absent or missing is a miss, nil is signed', async () => {
        const lb = await startLoopback(handler);
        const ctx = makeCtx('signMissCheck', { valoper_address: valoper }, { rest: lb.url, rpc: lb.url });
        const first = await signMissCheckCheck.read(ctx);
        expect(first).toMatchObject({
            hex: ours,
            moniker: 'mynode',
            status: 'BOND_STATUS_BONDED',
            window: { maxMissed: 9500 },
        });
        expect(first.blocks).toEqual([{ height: 12, signed: true, proposed: false }]);
        latest = 20;
        const second = await signMissCheckCheck.read(ctx);
        expect(second.blocks).toEqual([
            { height: 13, signed: false, proposed: false },
            { height: 14, signed: true, proposed: false },
            { height: 15, signed: false, proposed: false },
            { height: 16, signed: true, proposed: false },
            { height: 17, signed: true, proposed: false },
            { height: 18, signed: true, proposed: false },
            { height: 19, signed: true, proposed: false },
        ]);
        const [, v] = run(signMissCheckCheck, settings, [
            { at: T0, reading: okv(first) },
            { at: T0 + 5000, reading: okv(second) },
        ]);
        expect(v?.message).toBe(
            'Missed 2 of the last 7 blocks (tolerance 3); 8 missed in the slashing window of 10000 (jail above 9500)'
        );
        await lb.close();
    });

    it('explains a missing service and an unknown validator', async () => {
        const lb = await startLoopback(handler);
        await expect(
            signMissCheckCheck.read(makeCtx('signMissCheck', { valoper_address: valoper }, {}))
        ).rejects.toThrow('has no enabled rest service');
        const other = 'cosmosvaloper1q6d3d089hg59x6gcx92uumx70s5y5wadklue8s';
        await expect(
            signMissCheckCheck.read(makeCtx('signMissCheck', { valoper_address: other }, { rest: lb.url }))
        ).rejects.toThrow('REST service http://127.0.0.1');
        await lb.close();
    });
});
