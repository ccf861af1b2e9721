import { type UpgradeMeasurement, upgradeWatchCheck } from '../../../../server/engine/checks/upgradeWatch';
import { fixture, fixtureJson, routes, startLoopback } from '../../check-support';
import { fail, makeCtx, okv } from './ctx';

type Block = {
    block: { header: { height: string; time: string } };
    sdk_block: { header: { height: string; time: string } };
};

/** The captured andromeda block, moved to `height` and `time`. */
function blockAt(height: number, time: string): string {
    const b = fixtureJson<Block>('cosmos-base-tendermint-blocks-latest-andromeda-1.json');
    for (const h of [b.block.header, b.sdk_block.header]) {
        h.height = String(height);
        h.time = time;
    }
    return JSON.stringify(b);
}

const LATEST = Date.parse('2024-11-01T11:20:00Z');

describe('upgradeWatch read', () => {
    it('the nibiru plan: Warning naming the upgrade, its height, the ETA from the recent block time and the version', async () => {
        // 1000 blocks before the plan's height 8375044, 6 s per block over the last 100 → expected in 100 min.
        const lb = await startLoopback(
            routes({
                '/cosmos/upgrade/v1beta1/current_plan': fixture('derived-cosmos-upgrade-current-plan-nibiru.json'),
                '/cosmos/base/tendermint/v1beta1/blocks/latest': blockAt(8374044, '2024-11-01T11:20:00Z'),
                '/cosmos/base/tendermint/v1beta1/blocks/8373944': blockAt(8373944, '2024-11-01T11:10:00Z'),
                '/cosmos/base/tendermint/v1beta1/node_info': fixture('cosmos-base-tendermint-node_info-gaia-v17.json'),
            })
        );
        const r = await upgradeWatchCheck.read(makeCtx('upgradeWatch', {}, { rest: lb.url }));
        await lb.close();
        expect(r).toMatchObject({
            plan: { name: 'v1.5.0', height: 8375044 },
            appVersion: 'v17.2.0',
            latestHeight: 8374044,
            avgBlockMs: 6000,
        });
        const out = upgradeWatchCheck.evaluate(undefined, okv(r), {}, LATEST);
        expect(out.verdict).toEqual({
            level: 'warning',
            message:
                'Upgrade "v1.5.0" scheduled at height 8375044, 1000 blocks from now, expected around 2024-11-01T13:00:00Z (in about 100 min); the node runs v17.2.0',
        });
        expect(out.notice).toBe(out.verdict.message);
        expect(out.memory.last).toMatchObject({ etaMs: Date.parse('2024-11-01T13:00:00Z'), appVersion: 'v17.2.0' });
    });

    it('a plan of null is healthy; a pruned node gives no ETA but still the height', async () => {
        const none = await startLoopback(
            routes({
                '/cosmos/upgrade/v1beta1/current_plan': fixture('derived-cosmos-upgrade-current-plan-none.json'),
                '/cosmos/base/tendermint/v1beta1/blocks/latest': fixture(
                    'cosmos-base-tendermint-blocks-latest-andromeda-1.json'
                ),
                '/cosmos/base/tendermint/v1beta1/node_info': fixture('cosmos-base-tendermint-node_info-gaia-v17.json'),
            })
        );
        const r = await upgradeWatchCheck.read(makeCtx('upgradeWatch', {}, { rest: none.url }));
        await none.close();
        expect(r).toMatchObject({ plan: null, appVersion: 'v17.2.0', latestHeight: 4984052 });
        const out = upgradeWatchCheck.evaluate(undefined, okv(r), {}, LATEST);
        expect(out.verdict).toEqual({ level: 'ok', message: null });
        expect(out.notice ?? null).toBeNull();

        const pruned = await startLoopback(
            routes({
                '/cosmos/upgrade/v1beta1/current_plan': fixture('derived-cosmos-upgrade-current-plan-nibiru.json'),
                '/cosmos/base/tendermint/v1beta1/blocks/latest': blockAt(8374044, '2024-11-01T11:20:00Z'),
            })
        );
        const p = await upgradeWatchCheck.read(makeCtx('upgradeWatch', {}, { rest: pruned.url }));
        await pruned.close();
        expect(upgradeWatchCheck.evaluate(undefined, okv(p), {}, LATEST).verdict.message).toBe(
            'Upgrade "v1.5.0" scheduled at height 8375044, 1000 blocks from now'
        );
    });
});

const H = 3_600_000;
const T0 = Date.UTC(2025, 0, 1);
/** The plan at height 10000, `blocksLeft` away at 6 s per block, read at `at`. */
const at = (blocksLeft: number, at: number) =>
    okv<UpgradeMeasurement>({
        plan: { name: 'v2', height: 10000, info: '' },
        appVersion: 'v1.0.0',
        latestHeight: 10000 - blocksLeft,
        latestTimeMs: at,
        avgBlockMs: 6000,
    });

describe('upgradeWatch notices', () => {
    it('once when first seen, once more an hour before, never again; a restart keeps that', () => {
        const out = [upgradeWatchCheck.evaluate(undefined, at(3000, T0), {}, T0)];
        const step = (reading: ReturnType<typeof at> | ReturnType<typeof fail>, now: number) => {
            const memory = JSON.parse(JSON.stringify(out[out.length - 1]?.memory));
            out.push(upgradeWatchCheck.evaluate(memory, reading, {}, now));
        };
        step(at(2000, T0 + 1.67 * H), T0 + 1.67 * H); // 3.3 h left
        step(fail('REST service refused the connection'), T0 + 2 * H);
        step(at(590, T0 + 4 * H), T0 + 4 * H); // 59 min left
        step(at(500, T0 + 4.2 * H), T0 + 4.2 * H);
        step(at(0, T0 + 5 * H), T0 + 5 * H); // the height reached
        expect(out.map((o) => (o.notice ? 'notice' : '-'))).toEqual(['notice', '-', '-', 'notice', '-', '-']);
        expect(out[3]?.notice).toMatch(
            /^Upgrade "v2" scheduled at height 10000, 590 blocks from now, expected around .* \(in about 59 min\)/
        );
        expect(out[5]?.verdict).toEqual({
            level: 'warning',
            message:
                'Upgrade "v2" height 10000 reached: the chain stops there until validators run the new binary; the node runs v1.0.0',
        });
    });

    it('a plan first seen within the hour sends one notice; a new plan sends its own', () => {
        const first = upgradeWatchCheck.evaluate(undefined, at(100, T0), {}, T0);
        const second = upgradeWatchCheck.evaluate(first.memory, at(90, T0 + 60_000), {}, T0 + 60_000);
        const other = upgradeWatchCheck.evaluate(
            second.memory,
            okv<UpgradeMeasurement>({ ...at(5000, T0).value, plan: { name: 'v3', height: 20000, info: '' } }),
            {},
            T0 + 120_000
        );
        expect([first.notice, second.notice, other.notice].map((n) => (n ? 'notice' : '-'))).toEqual([
            'notice',
            '-',
            'notice',
        ]);
    });
});
