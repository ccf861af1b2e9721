import { blockCheckCheck, type BlockMeasurement } from '../../../../server/engine/checks/blockCheck';
import { fixture, routes, startLoopback } from '../../check-support';
import { fail, makeCtx, okv, run } from './ctx';

const T0 = Date.UTC(2025, 0, 1);
const settings = { miss_tolerance: 3, miss_tolerance_period_seconds: 60, sleep_duration_seconds: 10 };
/** A reading at poll i (every 10 s) with 5 s blocks unless told otherwise. */
const at = (i: number) => T0 + i * 10_000;
const block = (height: number, blockTimeMs: number, catchingUp = false) =>
    okv<BlockMeasurement>({ source: 'rpc', height, blockTimeMs, catchingUp });

function levels(readings: ReturnType<typeof block | typeof fail>[]) {
    return run(
        blockCheckCheck,
        settings,
        readings.map((reading, i) => ({ at: at(i), reading }))
    );
}

describe('blockCheck evaluate', () => {
    it('healthy while heights advance', () => {
        expect(levels([block(100, at(0)), block(102, at(1)), block(104, at(2))]).map((v) => v.level)).toEqual([
            'ok',
            'ok',
            'ok',
        ]);
    });

    it('a halted height warns, then errors at the tolerance', () => {
        // 5 s blocks: one poll without a new block is within the grace of two block times.
        const halted = [2, 3, 4, 5].map(() => block(102, at(1)));
        const out = levels([block(100, at(0)), block(102, at(1)), ...halted]);
        expect(out.map((v) => v.level)).toEqual(['ok', 'ok', 'ok', 'warning', 'warning', 'error']);
        expect(out[5]?.message).toBe('Height 102 has not advanced for 40 s (3 polls without progress; tolerance 3)');
    });

    it('a frozen node with a stale latest_block_time is a miss from its second poll, though catching_up is false', () => {
        const frozen = block(100, at(0) - 10 * 60_000);
        const out = levels([frozen, frozen]);
        expect(out.map((v) => v.level)).toEqual(['ok', 'warning']);
        expect(out[1]?.message).toContain('Latest block 100 is 10 min old (limit 60 s)');
    });

    it('old block times are no miss while the height advances (a node replaying old blocks makes progress)', () => {
        const old = T0 - 400 * 24 * 3600_000;
        const out = levels([block(100, old), block(102, old + 10_000), block(104, old + 20_000)]);
        expect(out.map((v) => v.level)).toEqual(['ok', 'ok', 'ok']);
    });

    it('catching_up is an error by itself', () => {
        const out = levels([block(100, at(0), true)]);
        expect(out[0]).toMatchObject({ level: 'error', message: 'Node is catching up (syncing, at height 100)' });
    });

    it('an unreachable node counts as a miss with its error text', () => {
        const out = levels([fail('RPC service http://n/status refused the connection')]);
        expect(out[0]).toMatchObject({
            level: 'warning',
            message: expect.stringContaining('refused the connection (1 poll'),
        });
    });

    it('polling faster than blocks are made is not a miss', () => {
        // 6 s blocks, polls every 1 s.
        const steps = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => {
            const h = 100 + Math.floor(i / 6);
            return { at: T0 + i * 1000, reading: block(h, T0 + (h - 100) * 6000) };
        });
        const memory = {
            height: 99,
            blockTimeMs: T0 - 6000,
            advancedAtMs: T0 - 6000,
            avgBlockMs: 6000,
            misses: 0,
            lastMissAtMs: null,
            lastMissReason: null,
        };
        expect(run(blockCheckCheck, settings, steps, memory).every((v) => v.level === 'ok')).toBe(true);
    });

    it('resets after the period without a new miss', () => {
        const out = levels([
            block(100, at(0)),
            block(100, at(0)),
            block(101, at(2)),
            ...[3, 4, 5, 6, 7, 8].map((i) => block(100 + i, at(i))),
        ]);
        expect(out[1]?.level).toBe('warning');
        expect(out.at(-1)?.level).toBe('ok');
    });

    it('a clock step or an interval longer than the period does not wipe a streak', () => {
        const stuck = (i: number) => ({ at: T0 + i * 120_000, reading: block(100, T0) }); // polls 2 min apart, period 60 s
        const out = run(blockCheckCheck, settings, [0, 1, 2, 3].map(stuck));
        expect(out.map((v) => v.level)).toEqual(['ok', 'warning', 'warning', 'error']);
    });

    it('a lower height (node replaced) re-baselines instead of missing', () => {
        expect(levels([block(500, at(0)), block(10, at(1))]).map((v) => v.level)).toEqual(['ok', 'ok']);
    });
});

describe('blockCheck read', () => {
    it('reads RPC /status, else REST, else explains', async () => {
        const rpc = await startLoopback(routes({ '/status': fixture('cometbft-0.38-status.json') }));
        const rest = await startLoopback(
            routes({
                '/cosmos/base/tendermint/v1beta1/blocks/latest': fixture(
                    'cosmos-base-tendermint-blocks-latest-andromeda-1.json'
                ),
                '/cosmos/base/tendermint/v1beta1/syncing': '{"syncing":true}',
            })
        );
        expect(await blockCheckCheck.read(makeCtx('blockCheck', {}, { rpc: rpc.url }))).toMatchObject({
            source: 'rpc',
            height: 26083,
            catchingUp: false,
        });
        expect(await blockCheckCheck.read(makeCtx('blockCheck', {}, { rest: rest.url }))).toMatchObject({
            source: 'rest',
            height: 4984052,
            catchingUp: true,
        });
        await expect(blockCheckCheck.read(makeCtx('blockCheck', {}, {}))).rejects.toThrow(
            'has no enabled rpc (or rest) service'
        );
        await expect(blockCheckCheck.read(makeCtx('blockCheck', {}, { rpc: `${rest.url}/nothing` }))).rejects.toThrow(
            /^RPC service http:\/\/127\.0\.0\.1:\d+\/nothing\/status answered HTTP 404 Not Found$/
        );
        await rpc.close();
        await rest.close();
    });
});
