import type { ReadResult } from '../../../server/engine/verdict';
import { ChainHalts } from '../../../server/engine/chain-halt';
import {
    type BlockMeasurement,
    type BlockMemory,
    blockCheckCheck,
    progressGraceMs,
} from '../../../server/engine/checks/blockCheck';
import type { MonitorTarget } from '../../../server/engine/targets';
import { type AlertState, INITIAL_ALERT_STATE, transition } from '../../../server/engine/transitions';
import { UpgradeHolds } from '../../../server/engine/upgrade-hold';
import { severityOf } from '../../../server/notify/record';

/**
 * The upgrade hold as the engine drives it: blockCheck's judgement → transition → ChainHalts, which asks the hold
 * first. Three nodes of one configuration checked every 10 s, blocks every 5 s, a plan at height 100.
 */
const settings = { miss_tolerance: 3, miss_tolerance_period_seconds: 30, sleep_duration_seconds: 10 };
const START = Date.UTC(2026, 10, 21, 8, 0, 0);
const STEP = 10_000;
const PLAN = { name: 'v18', height: 100 };
const GRACE = 30 * 60_000;

function world() {
    const holds = new UpgradeHolds();
    const halts = new ChainHalts(holds.adjust);
    let now = START;
    const nodes = [1, 2, 3].map((server) => ({
        target: {
            id: 100 + server,
            name: `height ${server}`,
            type: 'blockCheck',
            settings,
            key: String(server),
            configuration: { id: 1, name: 'Hub', chain: 'cosmoshub', companyId: 1 },
            server: { id: server, name: `node-${server}`, address: '10.0.0.1' },
            services: [],
        } as MonitorTarget,
        alert: INITIAL_ALERT_STATE as AlertState,
        memory: undefined as BlockMemory | undefined,
    }));
    const sent: { kind: string; monitor: number; message: string | null }[] = [];
    let n = 0;
    return {
        holds,
        sent,
        nodes,
        get now() {
            return now;
        },
        /** One check of every node; `height(i, chainHeight)` is what node i answers (null: unreadable). */
        step(height: (i: number, chain: number) => number | null) {
            now += STEP;
            n++;
            nodes.forEach((node, i) => {
                const h = height(i, 90 + Math.floor((now - START) / 5000));
                const reading: ReadResult<BlockMeasurement> =
                    h === null
                        ? { ok: false, error: 'connection refused' }
                        : {
                              ok: true,
                              value: {
                                  source: 'rpc',
                                  height: h,
                                  blockTimeMs: START + h * 5000,
                                  catchingUp: false,
                                  network: 'cosmoshub-4',
                              },
                          };
                const judged = blockCheckCheck.evaluate(node.memory, reading, settings, now);
                let next = transition(node.alert, judged.verdict, 30, now, () => `inc-${node.target.id}-${n}`);
                const grace = Math.max(1000, progressGraceMs(judged.memory.avgBlockMs));
                next = halts.adjust(node.target, reading, judged.verdict, grace, node.alert, next, now);
                // What a link at the default severity (critical) gets: warnings go only to links that ask for them.
                if (next.notification && severityOf(next.notification.kind) === 'critical')
                    sent.push({ ...next.notification, monitor: node.target.id });
                node.alert = next.state;
                node.memory = judged.memory;
            });
        },
        steps(count: number, height: (i: number, chain: number) => number | null) {
            for (let i = 0; i < count; i++) this.step(height);
        },
    };
}

const atPlan = (_i: number, chain: number) => Math.min(chain, PLAN.height);
const kinds = (sent: { kind: string }[]) => sent.map((s) => s.kind);

it('holds the block alerts of a chain standing at the plan height: one UPGRADE HEIGHT REACHED', () => {
    const w = world();
    w.holds.setPlan(1, PLAN, GRACE, w.now);
    w.steps(40, atPlan); // reaches 100 after ~50 s, then stands there for ~5 min
    expect(kinds(w.sent)).toEqual(['upgrade-height']);
    expect(w.sent[0]?.message).toBe(
        'The chain cosmoshub stopped at height 100 for the upgrade "v18"; block alerts of this configuration\'s nodes are held for 30 min while validators switch to the new binary'
    );
    expect(w.nodes.every((x) => x.alert.status === 'normal')).toBe(true);
});

it('without a plan the same halt is a CHAIN STALLED (the hold is what changes it)', () => {
    const w = world();
    w.steps(40, atPlan);
    expect(kinds(w.sent)).toEqual(['chain-stalled']);
});

it('when the grace runs out with the chain still stopped, the chain-stall alert goes out then', () => {
    const w = world();
    w.holds.setPlan(1, PLAN, GRACE, w.now);
    w.steps(6, atPlan); // reached at ~50 s
    const reachedBy = w.now;
    w.steps(Math.floor(GRACE / STEP) - 2, atPlan);
    expect(kinds(w.sent)).toEqual(['upgrade-height']);
    w.steps(4, atPlan);
    expect(kinds(w.sent)).toEqual(['upgrade-height', 'chain-stalled']);
    expect(w.now - reachedBy).toBeGreaterThanOrEqual(GRACE);
});

it('after the resume a node still at the height alerts; the others neither alert nor recover', () => {
    const w = world();
    w.holds.setPlan(1, PLAN, GRACE, w.now);
    w.steps(30, atPlan);
    // The upgraded node answers plan null before blocks resume: still held.
    w.holds.setPlan(1, null, GRACE, w.now);
    w.steps(3, atPlan);
    expect(kinds(w.sent)).toEqual(['upgrade-height']);
    const resumeAt = 90 + Math.floor((w.now - START) / 5000);
    const afterResume = (i: number, chain: number) => (i === 2 ? PLAN.height : PLAN.height + (chain - resumeAt));
    w.steps(12, afterResume);
    expect(w.sent.slice(1).map((s) => `${s.kind} ${s.monitor}`)).toEqual(['alert 103']);
    expect(w.nodes.map((x) => x.alert.status)).toEqual(['normal', 'normal', 'alerting']);
});

it('an unreadable node is held only once the height was reached', () => {
    const w = world();
    w.holds.setPlan(1, PLAN, GRACE, w.now);
    w.steps(4, (i, chain) => (i === 2 ? null : chain)); // the others below the height, moving
    expect(kinds(w.sent)).toEqual(['alert']);
});
