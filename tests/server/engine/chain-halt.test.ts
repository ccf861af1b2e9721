import type { ReadResult } from '../../../server/engine/verdict';
import { ChainHalts, chainPool } from '../../../server/engine/chain-halt';
import {
    type BlockMeasurement,
    type BlockMemory,
    blockCheckCheck,
    progressGraceMs,
} from '../../../server/engine/checks/blockCheck';
import type { MonitorTarget } from '../../../server/engine/targets';
import { type AlertState, INITIAL_ALERT_STATE, transition } from '../../../server/engine/transitions';
import { severityOf } from '../../../server/notify/record';

/**
 * R14: a chain halt seen by every node of a configuration is one CHAIN STALLED and one CHAIN RESUMED, not an alert
 * and a recovery per node. Driven as the engine drives it (blockCheck's judgement → transition → ChainHalts), one
 * check of every node every 10 s, blocks every 5 s (unless a case says otherwise).
 */
const settings = {
    miss_tolerance: 3,
    miss_tolerance_period_seconds: 30,
    sleep_duration_seconds: 10,
    alert_sleep_duration_minutes: 30,
};

interface Node {
    target: MonitorTarget;
    alert: AlertState;
    memory: BlockMemory | undefined;
}

interface WorldOptions {
    configurationOf?: (server: number) => number;
    companyOf?: (server: number) => number;
    /** The chain name typed on the node's configuration. */
    chainNameOf?: (server: number) => string;
    /** The chain id the node reports. */
    networkOf?: (server: number) => string;
    stepMs?: number;
    blockMs?: number;
    /** Checks of the nodes spread evenly over a step, as the scheduler's jitter spreads them, instead of at once. */
    staggered?: boolean;
    missTolerancePeriodSeconds?: number;
}

function world(
    serverIds: number[],
    {
        configurationOf = () => 1,
        companyOf = () => 1,
        chainNameOf = () => 'cosmoshub',
        networkOf = () => 'cosmoshub-4',
        stepMs = 10_000,
        blockMs = 5000,
        staggered = false,
        missTolerancePeriodSeconds = settings.miss_tolerance_period_seconds,
    }: WorldOptions = {}
) {
    let halts = new ChainHalts();
    const start = Date.UTC(2026, 10, 21, 8, 0, 0);
    let now = start;
    const nodes: Node[] = serverIds.map((server) => ({
        target: {
            id: 100 + server,
            name: `height ${server}`,
            type: 'blockCheck',
            settings: {
                ...settings,
                sleep_duration_seconds: stepMs / 1000,
                miss_tolerance_period_seconds: missTolerancePeriodSeconds,
            },
            key: String(server),
            configuration: {
                id: configurationOf(server),
                name: 'Hub',
                chain: chainNameOf(server),
                companyId: companyOf(server),
            },
            server: { id: server, name: `node-${server}`, address: '10.0.0.1' },
            services: [],
        },
        alert: INITIAL_ALERT_STATE,
        memory: undefined,
    }));
    const sent: { kind: string; monitor: number; message: string | null; at: number }[] = [];
    const changes: string[] = [];
    let n = 0;
    return {
        nodes,
        sent,
        changes,
        /** Advances the clock one step and checks every node; `height(i)` is what node i answers now (null: down). */
        step(height: (i: number, chainHeight: number) => number | null) {
            now += stepMs;
            n++;
            nodes.forEach((node, i) => {
                const t = now + (staggered ? Math.floor((i * stepMs) / nodes.length) : 0);
                const h = height(i, Math.floor((t - start) / blockMs));
                const reading: ReadResult<BlockMeasurement> =
                    h === null
                        ? { ok: false, error: 'connection refused' }
                        : {
                              ok: true,
                              value: {
                                  source: 'rpc',
                                  network: networkOf(node.target.server?.id ?? 0),
                                  height: h,
                                  blockTimeMs: start + h * blockMs,
                                  catchingUp: false,
                              },
                          };
                const judged = blockCheckCheck.evaluate(node.memory, reading, node.target.settings, t);
                let next = transition(node.alert, judged.verdict, 30, t, () => `inc-${node.target.id}-${n}`);
                const grace = Math.max(1000, progressGraceMs(judged.memory.avgBlockMs));
                next = halts.adjust(node.target, reading, judged.verdict, grace, node.alert, next, t);
                // What a link at the default severity (critical) gets: warnings go only to links that ask for them.
                if (next.notification && severityOf(next.notification.kind) === 'critical')
                    sent.push({ ...next.notification, monitor: node.target.id, at: n });
                if (next.change) changes.push(next.change);
                node.alert = next.state;
                node.memory = judged.memory;
            });
        },
        /** Every monitor deleted and created anew (new ids, nothing remembered), on the same servers. */
        recreate() {
            for (const node of nodes) {
                node.target = { ...node.target, id: node.target.id + 1000 };
                node.alert = INITIAL_ALERT_STATE;
                node.memory = undefined;
            }
        },
        /** A restart: what was saved survives, the rest of memory is gone. */
        restart() {
            halts = new ChainHalts();
            halts.restore(nodes.map((x) => JSON.parse(JSON.stringify(x.alert)) as AlertState));
        },
        steps(count: number, height: (i: number, chainHeight: number) => number | null) {
            for (let i = 0; i < count; i++) this.step(height);
        },
    };
}

const moving = (_i: number, chain: number) => chain;
const haltedAt = (h: number) => (_i: number, chain: number) => Math.min(chain, h);
const kinds = (sent: { kind: string }[]) => sent.map((s) => s.kind);

it('sends one CHAIN STALLED and one CHAIN RESUMED for three nodes, no per-node alert or recovery', () => {
    const w = world([1, 2, 3]);
    w.steps(6, moving);
    w.steps(60, haltedAt(12)); // ten minutes without a block
    expect(kinds(w.sent)).toEqual(['chain-stalled']);
    expect(w.sent[0]?.message).toBe(
        "No new block after height 12 on any watched node of cosmoshub; alerts of this configuration's nodes are held back until blocks resume"
    );
    // Every node still entered Error on its own audit trail.
    expect(w.changes.filter((c) => c.startsWith('Entered Error')).length).toBe(3);
    expect(
        w.changes.every((c) => !c.startsWith('Entered Error') || c.endsWith('(held back: the chain is stalled)'))
    ).toBe(true);
    w.steps(20, moving);
    expect(kinds(w.sent)).toEqual(['chain-stalled', 'chain-resumed']);
    expect(w.sent[1]?.message).toBe('Blocks resume after height 12');
    expect(w.nodes.map((x) => x.alert.status)).toEqual(['normal', 'normal', 'normal']);
    expect(w.nodes.every((x) => x.alert.chain === undefined)).toBe(true);
});

it('reminds once per sleep from one node only', () => {
    const w = world([1, 2]);
    w.steps(6, moving);
    w.steps(6 * 70, haltedAt(12)); // 70 min
    expect(kinds(w.sent)).toEqual(['chain-stalled', 'reminder', 'reminder']);
    expect(new Set(w.sent.map((s) => s.monitor)).size).toBe(1);
    expect(w.sent[1]?.message).toBe('The chain is still stalled at height 12');
});

it('alerts as usual when one node stops while the chain moves on', () => {
    const w = world([1, 2, 3]);
    w.steps(6, moving);
    w.steps(20, (i, chain) => (i === 1 ? 12 : chain));
    expect(kinds(w.sent)).toEqual(['alert']);
    expect(w.sent[0]?.monitor).toBe(102);
});

it('alerts at once when one node stops while the others, polled each minute, move on (no halt is assumed)', () => {
    const w = world([1, 2, 3], { stepMs: 60_000, blockMs: 1000, staggered: true });
    w.steps(3, moving);
    w.steps(5, (i, chain) => (i === 0 ? 185 : chain));
    expect(kinds(w.sent)).toEqual(['alert']);
    expect(w.sent[0]).toMatchObject({ monitor: 101, at: 7 }); // its third miss: the tolerance, no later
});

it('tells a halt from staggered minute polls too', () => {
    const w = world([1, 2, 3], { stepMs: 60_000, blockMs: 1000, staggered: true });
    w.steps(3, moving);
    w.steps(10, haltedAt(230));
    expect(kinds(w.sent)).toEqual(['chain-stalled']);
    w.steps(3, moving);
    expect(kinds(w.sent)).toEqual(['chain-stalled', 'chain-resumed']);
});

it('alerts as usual when a single watched node stops: one node cannot tell a halt from its own fault', () => {
    const w = world([1]);
    w.steps(6, moving);
    w.steps(20, haltedAt(12));
    expect(kinds(w.sent)).toEqual(['alert']);
});

it('alerts a node on its own when it does not follow the chain within 5 min of the resume', () => {
    const w = world([1, 2, 3]);
    w.steps(6, moving);
    w.steps(30, haltedAt(12));
    w.steps(60, (i, chain) => (i === 2 ? 12 : chain));
    expect(kinds(w.sent)).toEqual(['chain-stalled', 'chain-resumed', 'alert']);
    expect(w.sent[2]).toMatchObject({
        monitor: 103,
        message: expect.stringMatching(/^Did not follow the chain when its blocks resumed: /),
    });
    const resumedAt = w.sent[1]?.at ?? 0;
    expect((w.sent[2]?.at ?? 0) - resumedAt).toBeGreaterThanOrEqual(30); // 5 min of 10 s steps
});

it('continues an incident across a restart: no second CHAIN STALLED, one CHAIN RESUMED', () => {
    const w = world([1, 2, 3]);
    w.steps(6, moving);
    w.steps(30, haltedAt(12));
    w.restart();
    w.steps(30, haltedAt(12));
    w.steps(20, moving);
    expect(kinds(w.sent)).toEqual(['chain-stalled', 'chain-resumed']);
});

it('does not end an incident twice when the server restarts between the first node and the others', () => {
    const w = world([1, 2, 3]);
    w.steps(6, moving);
    w.steps(30, haltedAt(12));
    // Only the first node has made progress when the restart comes.
    w.step((i, chain) => (i === 0 ? chain : 12));
    expect(kinds(w.sent)).toEqual(['chain-stalled', 'chain-resumed']);
    w.restart();
    w.steps(20, moving);
    expect(kinds(w.sent)).toEqual(['chain-stalled', 'chain-resumed']);
});

it('keeps configurations apart: each gets its own CHAIN STALLED', () => {
    const w = world([1, 2, 3, 4], { configurationOf: (server) => (server <= 2 ? 1 : 2) });
    w.steps(6, moving);
    w.steps(30, haltedAt(12));
    expect(kinds(w.sent)).toEqual(['chain-stalled', 'chain-stalled']);
    expect(w.sent.map((s) => s.monitor)).toEqual([101, 103]);
});

it('does not take one node that stopped at the newest height for a halt while the others were not asked again', () => {
    const halts = new ChainHalts();
    const target = (server: number): MonitorTarget => ({
        id: 100 + server,
        name: `height ${server}`,
        type: 'blockCheck',
        settings,
        key: String(server),
        configuration: { id: 1, name: 'Hub', chain: 'cosmoshub', companyId: 1 },
        server: { id: server, name: `node-${server}`, address: '10.0.0.1' },
        services: [],
    });
    const at = (height: number) => ({
        ok: true as const,
        value: { source: 'rpc' as const, network: 'cosmoshub-4', height, blockTimeMs: 0, catchingUp: false },
    });
    const healthy = { state: INITIAL_ALERT_STATE, notification: null, change: null };
    const error = { level: 'error' as const, message: 'Height 101 has not advanced for 1 min' };
    const alert = transition(INITIAL_ALERT_STATE, error, 30, 61_000, () => 'own');
    halts.adjust(target(1), at(100), { level: 'ok', message: null }, 2000, INITIAL_ALERT_STATE, healthy, 0);
    halts.adjust(target(2), at(100), { level: 'ok', message: null }, 2000, INITIAL_ALERT_STATE, healthy, 0);
    halts.adjust(target(3), at(101), { level: 'ok', message: null }, 2000, INITIAL_ALERT_STATE, healthy, 1000);
    // A minute later only node 3 has been asked again, and it stands still: its own fault, as far as anyone knows.
    const out = halts.adjust(target(3), at(101), error, 2000, INITIAL_ALERT_STATE, alert, 61_000);
    expect(out.notification).toMatchObject({ kind: 'alert', incidentId: 'own' });
    expect(halts.haltOf(chainPool(1, 'cosmoshub-4'), 61_000, 2000)).toBeNull();
});

it('sends no "did not follow" alert for nodes that are past the halt but still within their miss tolerance period', () => {
    const w = world([1, 2, 3], { missTolerancePeriodSeconds: 600 });
    w.steps(6, moving);
    w.steps(60, haltedAt(12));
    w.steps(120, moving);
    expect(kinds(w.sent)).toEqual(['chain-stalled', 'chain-resumed']);
    expect(w.nodes.map((x) => x.alert.status)).toEqual(['normal', 'normal', 'normal']);
});

it('lets a node that had already alerted on its own send its recovery, though it stood at the halt height', () => {
    const w = world([1, 2, 3]);
    w.steps(6, moving);
    w.steps(6, (i, chain) => (i === 2 ? null : chain)); // node 3 unreachable: its own ALERT
    w.steps(30, (_i, chain) => Math.min(chain, 26)); // the chain halts at 26; node 3 answers again, at 26
    w.steps(20, moving);
    expect(kinds(w.sent)).toEqual(['alert', 'chain-stalled', 'chain-resumed', 'recovery']);
    expect(w.sent[3]?.monitor).toBe(103);
});

it('opens a new incident for a later halt after the monitors were recreated during the first', () => {
    const w = world([1, 2, 3]);
    w.steps(6, moving);
    w.steps(30, haltedAt(12));
    w.recreate();
    w.steps(20, moving);
    w.steps(30, haltedAt(120));
    expect(kinds(w.sent)).toEqual(['chain-stalled', 'chain-stalled']);
    expect(w.sent[1]?.message).toMatch(/^No new block after height 120 /);
});

it("keeps companies apart: another company's stopped nodes of the same chain id and name make no halt", () => {
    const w = world([1, 2, 3], { configurationOf: (server) => server, companyOf: (server) => (server === 3 ? 2 : 1) });
    w.steps(6, moving);
    w.steps(20, haltedAt(12));
    // Company 1's two nodes are a halt for company 1; company 2's lone node alerts as any lone node does.
    expect(w.sent.map((s) => [s.kind, s.monitor])).toEqual([
        ['chain-stalled', 101],
        ['chain-stalled', 102],
        ['alert', 103],
    ]);
});

it('pools by the chain id the nodes report, not by the chain name typed on the configuration', () => {
    // Node 3's configuration calls the chain "gaia", but the node reports cosmoshub-4 like the other two.
    const renamed = world([1, 2, 3], {
        configurationOf: (server) => (server === 3 ? 2 : 1),
        chainNameOf: (server) => (server === 3 ? 'gaia' : 'cosmoshub'),
    });
    renamed.steps(6, moving);
    renamed.steps(20, haltedAt(12));
    expect(kinds(renamed.sent)).toEqual(['chain-stalled', 'chain-stalled']);
    expect(renamed.sent[1]?.message).toMatch(/ on any watched node of gaia;/);

    // Two nodes typed "cosmoshub" that report different chains are two lone nodes.
    const mixed = world([1, 2], { networkOf: (server) => (server === 1 ? 'cosmoshub-4' : 'theta-testnet-001') });
    mixed.steps(6, moving);
    mixed.steps(20, haltedAt(12));
    expect(kinds(mixed.sent)).toEqual(['alert', 'alert']);
});

it('takes a reading without a chain id for no part of a halt', () => {
    const w = world([1, 2], { networkOf: () => '' });
    w.steps(6, moving);
    w.steps(20, haltedAt(12));
    expect(kinds(w.sent)).toEqual(['alert', 'alert']);
});
