import type { Check, CheckContext } from '../../../../server/engine/check';
import { CHECKS } from '../../../../server/engine/checks';
import { type ChainSim, startChainSim } from '../../../../tools/chain-sim';
import { makeCtx } from './ctx';

/** One end-to-end pass per check: read() against the chain simulator, evaluate() on what it read. */
let sim: ChainSim;

beforeAll(async () => {
    sim = await startChainSim({ autoStart: false, oracle: 'kujira', initialBlocks: 5 });
});
afterAll(() => sim.close());

function node() {
    const n = sim.nodes[0];
    if (!n) throw new Error('no node');
    return n;
}

async function judge(check: Check, ctx: CheckContext, memory: unknown) {
    const value = await check.read(ctx);
    return check.evaluate(memory, { ok: true, value }, ctx.monitor.settings, Date.now());
}

const chain = { name: 'kujira', bech32Prefix: 'cosmos' };

describe('checks against the chain simulator', () => {
    it('urlCheck: the RPC /health answers', async () => {
        const ctx = makeCtx('urlCheck', { address: `${node().rpcUrl}/health`, allowed_attempts: 1 }, {});
        expect((await judge(CHECKS.urlCheck, ctx, undefined)).verdict.level).toBe('ok');
    });

    it('blockCheck: healthy, then catching up', async () => {
        const ctx = makeCtx('blockCheck', {}, { rpc: node().rpcUrl }, chain);
        await sim.control.produceBlocks(1);
        const first = await judge(CHECKS.blockCheck, ctx, undefined);
        expect(first.verdict.level).toBe('ok');
        sim.control.catchUp(0, { behindBlocks: 3 });
        const second = await judge(CHECKS.blockCheck, ctx, first.memory);
        expect(second.verdict).toMatchObject({ level: 'error', message: expect.stringContaining('catching up') });
        sim.control.clearCatchUp(0);
    });

    it('signMissCheck: absent votes are counted, nil votes are not', async () => {
        const settings = { valoper_address: sim.chain.ours.valoper, miss_tolerance: 10 };
        const ctx = makeCtx('signMissCheck', settings, { rpc: node().rpcUrl, rest: node().restUrl }, chain);
        const first = await judge(CHECKS.signMissCheck, ctx, undefined);
        expect(first.verdict.level).toBe('ok');
        sim.control.missSignatures({ mode: 'nil', blocks: 2 });
        await sim.control.produceBlocks(3);
        const second = await judge(CHECKS.signMissCheck, ctx, first.memory);
        expect(second.verdict.level).toBe('ok');
        sim.control.missSignatures({ mode: 'absent', blocks: 2 });
        await sim.control.produceBlocks(4);
        const third = await judge(CHECKS.signMissCheck, ctx, second.memory);
        expect(third.verdict).toMatchObject({
            level: 'warning',
            message: expect.stringMatching(/^Missed 2 of the last \d+ blocks \(tolerance 10\)/),
        });
    });

    it('priceFeederMissCount: a rise of the oracle counter warns', async () => {
        const settings = { valoper_address: sim.chain.ours.valoper, miss_tolerance: 10 };
        const ctx = makeCtx('priceFeederMissCount', settings, { rest: node().restUrl }, chain);
        const first = await judge(CHECKS.priceFeederMissCount, ctx, undefined);
        sim.control.raiseOracleMiss(3);
        const second = await judge(CHECKS.priceFeederMissCount, ctx, first.memory);
        expect(second.verdict).toMatchObject({ level: 'warning', message: expect.stringContaining('rose by 3') });
    });

    it('nodeExporterDiskSpace: only real filesystems; a full data disk is an error', async () => {
        const ctx = makeCtx(
            'nodeExporterDiskSpace',
            { threshold: 80 },
            { node_exporter: node().nodeExporterUrl },
            chain
        );
        const value = (await CHECKS.nodeExporterDiskSpace.read(ctx)) as { filesystems: { mountpoint: string }[] };
        const mounts = value.filesystems.map((f) => f.mountpoint);
        expect(mounts).toContain('/');
        expect(mounts).not.toContain('/etc/hosts');
        expect(
            mounts.some((m) => m.startsWith('/run') || m.startsWith('/dev') || m.startsWith('/var/lib/docker'))
        ).toBe(false);
        sim.control.setDisk(0, '/var/lib/cosmos', { percent: 95 });
        const full = await judge(CHECKS.nodeExporterDiskSpace, ctx, undefined);
        expect(full.verdict).toMatchObject({
            level: 'error',
            message: expect.stringContaining('/var/lib/cosmos is 95'),
        });
    });

    it('validatorOutOfActiveSet: bonded, then jailed', async () => {
        const ctx = makeCtx(
            'validatorOutOfActiveSet',
            { valoper_address: sim.chain.ours.valoper },
            { rest: node().restUrl },
            chain
        );
        expect((await judge(CHECKS.validatorOutOfActiveSet, ctx, undefined)).verdict.level).toBe('ok');
        sim.control.jail();
        await sim.control.produceBlocks(1);
        const jailed = await judge(CHECKS.validatorOutOfActiveSet, ctx, undefined);
        expect(jailed.verdict).toMatchObject({ level: 'error', message: expect.stringContaining('is jailed') });
        sim.control.unjail();
    });
});
