// Fault and state control: one programmatic API (tests) and the same operations over HTTP (demo, CLI).
// `node` is an index into ChainSim.nodes; `validator` an index into chain.validators (default: ours).
import { z } from 'zod';
import type { SimChain, SimValidator } from './chain';
import type { Fault, Protocol } from './faults';
import { type Handler, json } from './http';
import type { SimNode } from './node';
import { fillDisk, setDiskUse, setMemoryUse } from './node-exporter';

export type DiskUse = { percent: number; usedBytes?: undefined } | { usedBytes: number; percent?: undefined };

export interface SimControl {
    /** Halt one node (its height stops; if it is the validator node, our votes go absent), or the whole chain. */
    halt(node?: number): void;
    /** Resume one node (it jumps back to the head), or with no argument the chain and every node. */
    resume(node?: number): void;
    /** Report catching_up (and REST syncing) true, optionally `behindBlocks` behind, for `durationMs` or until cleared. */
    catchUp(node: number, opts?: { durationMs?: number; behindBlocks?: number }): void;
    clearCatchUp(node: number): void;
    /** Height keeps advancing but every block time this node reports lags by `seconds` (0 clears). */
    staleBlockTime(node: number, seconds: number): void;
    /** Next `blocks` commits (or until cleared): 'absent' = flag 1, a miss; 'nil' = flag 3, counts as signed. */
    missSignatures(opts: { mode: 'absent' | 'nil'; blocks?: number; validator?: number }): void;
    clearMiss(validator?: number): void;
    jail(validator?: number): void;
    /** Set x/slashing's missed_blocks_counter: the misses are placed in the slots that roll out of the window last. */
    setMissedCounter(n: number, validator?: number): void;
    /** Set a validator's tokens so that it ranks `rank` by stake among the bonded validators. */
    setRank(rank: number, validator?: number): void;
    unjail(validator?: number): void;
    unbond(validator?: number): void;
    tombstone(validator?: number): void;
    /** Open a proposal in its voting period, ending at `endsAtMs` (epoch ms); returns its id. */
    openProposal(opts: { endsAtMs: number; title?: string }): number;
    /** Cast a validator's vote (its operator account) on a proposal; VOTE_OPTION_YES by default. */
    castVote(proposal: number, opts?: { option?: string; validator?: number }): void;
    /** Serve governance on v1beta1 only, as an SDK ≤ 0.45 chain (v1 answers 501). */
    setGovLegacyOnly(on: boolean): void;
    /** Schedule an upgrade: the chain makes block `height` and stops there until `applyUpgrade`. */
    scheduleUpgrade(plan: { name: string; height: number; info?: string }): void;
    /** The validators run the new binary: the plan is cleared, node_info shows its name, blocks resume. */
    applyUpgrade(): void;
    raiseOracleMiss(n: number, validator?: number): void;
    setOracleMiss(n: number, validator?: number): void;
    /** Back to 0, as at the end of a slash window. */
    resetOracleMiss(validator?: number): void;
    setDisk(node: number, mountpoint: string, use: DiskUse): void;
    /** Grow the mountpoint's use steadily by `percentPerHour` of real time (0 stops), from `fromPercent` if given. */
    fillDisk(node: number, mountpoint: string, percentPerHour: number, fromPercent?: number): void;
    setMemory(node: number, use: DiskUse): void;
    setLoad(node: number, load1: number): void;
    setPeers(node: number, peers: number): void;
    /** Merge a fault into a node's protocol ('all' = every port of the node). */
    setFault(node: number, protocol: Protocol | 'all', fault: Fault): void;
    clearFaults(node?: number, protocol?: Protocol | 'all'): void;
    resetFaults(): void;
    /** Produce blocks now, independent of the clock. */
    produceBlocks(count: number): Promise<void>;
    waitForHeight(height: number, timeoutMs?: number): Promise<void>;
    /** A JSON summary of the simulator's state (also GET / on the control port). */
    state(): unknown;
}

export function createControl(chain: SimChain, nodes: SimNode[]): SimControl {
    const node = (i: number): SimNode => {
        const n = nodes[i];
        if (!n) throw new Error(`no node ${i} (have ${nodes.length})`);
        return n;
    };
    const validator = (i = chain.config.oursIndex): SimValidator => {
        const v = chain.validators[i];
        if (!v) throw new Error(`no validator ${i} (have ${chain.validators.length})`);
        return v;
    };
    const resumeNode = (n: SimNode) => {
        n.haltedAt = null;
    };

    return {
        halt(i) {
            if (i === undefined) chain.halted = true;
            else node(i).haltedAt = node(i).height;
        },
        resume(i) {
            if (i !== undefined) return resumeNode(node(i));
            chain.halted = false;
            nodes.forEach(resumeNode);
        },
        catchUp(i, opts = {}) {
            const n = node(i);
            n.clearCatchUp();
            n.catchingUp = true;
            n.behindBlocks = opts.behindBlocks ?? 0;
            if (opts.durationMs) n.catchUpTimer = setTimeout(() => n.clearCatchUp(), opts.durationMs);
        },
        clearCatchUp: (i) => node(i).clearCatchUp(),
        staleBlockTime(i, seconds) {
            node(i).staleSeconds = seconds;
        },
        missSignatures({ mode, blocks, validator: vi }) {
            chain.missPlans.set(validator(vi).index, { mode, remaining: blocks ?? null });
        },
        clearMiss(vi) {
            if (vi === undefined) chain.missPlans.clear();
            else chain.missPlans.delete(validator(vi).index);
        },
        jail: (vi) => chain.jail(validator(vi)),
        setMissedCounter: (n, vi) => chain.setMissedCounter(validator(vi), n),
        setRank: (rank, vi) => chain.setRank(validator(vi), rank),
        unjail: (vi) => chain.unjail(validator(vi)),
        unbond: (vi) => chain.unbond(validator(vi)),
        tombstone: (vi) => chain.tombstone(validator(vi)),
        openProposal({ endsAtMs, title }) {
            const id = (chain.gov.proposals.at(-1)?.id ?? 0) + 1;
            chain.gov.proposals.push({
                id,
                title: title ?? `Proposal ${id}`,
                submitMs: Date.now(),
                votingEndMs: endsAtMs,
                votes: new Map(),
            });
            return id;
        },
        castVote(proposal, opts = {}) {
            const p = chain.gov.proposals.find((x) => x.id === proposal);
            if (!p) throw new Error(`no proposal ${proposal}`);
            p.votes.set(validator(opts.validator).account, opts.option ?? 'VOTE_OPTION_YES');
        },
        setGovLegacyOnly(on) {
            chain.gov.legacyOnly = on;
        },
        scheduleUpgrade({ name, height, info }) {
            chain.upgrade = { name, height, info: info ?? '' };
        },
        applyUpgrade() {
            if (chain.upgrade) chain.appVersion = chain.upgrade.name;
            chain.upgrade = null;
        },
        raiseOracleMiss(n, vi) {
            validator(vi).oracleMissCounter += n;
        },
        setOracleMiss(n, vi) {
            validator(vi).oracleMissCounter = n;
        },
        resetOracleMiss(vi) {
            validator(vi).oracleMissCounter = 0;
        },
        setDisk: (i, mountpoint, use) => setDiskUse(node(i).host, mountpoint, use),
        fillDisk: (i, mountpoint, rate, from) => fillDisk(node(i).host, mountpoint, rate, from),
        setMemory: (i, use) => setMemoryUse(node(i).host, use),
        setLoad(i, load1) {
            node(i).host.load = [load1, load1 * 0.9, load1 * 0.8];
        },
        setPeers(i, peers) {
            node(i).peers = peers;
        },
        setFault: (i, protocol, fault) => node(i).faults.set(protocol, fault),
        clearFaults(i, protocol) {
            for (const n of i === undefined ? nodes : [node(i)]) n.faults.clear(protocol);
        },
        resetFaults() {
            for (const n of nodes) n.faults.clear();
        },
        produceBlocks: (count) => chain.produceBlocks(count),
        waitForHeight: (height, timeoutMs) => chain.waitForHeight(height, timeoutMs),
        state() {
            return {
                chainId: chain.config.chainId,
                height: chain.height,
                earliestHeight: chain.earliestHeight,
                halted: chain.halted,
                upgrade: chain.upgrade,
                appVersion: chain.appVersion,
                missPlans: Object.fromEntries(chain.missPlans),
                validators: chain.validators.map((v) => ({
                    index: v.index,
                    ours: v.index === chain.config.oursIndex,
                    moniker: v.moniker,
                    hexAddress: v.hexAddress,
                    valoper: v.valoper,
                    valcons: v.valcons,
                    status: v.state.status,
                    jailed: v.state.jailed,
                    tombstoned: v.state.signing.tombstoned,
                    missedBlocksCounter: v.state.signing.missedBlocksCounter,
                    oracleMissCounter: v.oracleMissCounter,
                })),
                proposals: chain.gov.proposals.map((p) => ({
                    id: p.id,
                    title: p.title,
                    votingEnd: new Date(p.votingEndMs).toISOString(),
                    votes: Object.fromEntries(p.votes),
                })),
                nodes: nodes.map((n) => ({
                    index: n.index,
                    validatorNode: n.isValidatorNode,
                    height: n.height,
                    halted: n.halted,
                    catchingUp: n.catchingUp,
                    staleSeconds: n.staleSeconds,
                    peers: n.peers,
                    faults: n.faults.snapshot(),
                    rpcUrl: n.rpcUrl,
                    restUrl: n.restUrl,
                    metricsUrl: n.metricsUrl,
                    nodeExporterUrl: n.nodeExporterUrl,
                })),
            };
        },
    };
}

// --- HTTP control API -----------------------------------------------------------------------------------

const nodeIdx = z.number().int().min(0);
const optValidator = z.object({ validator: z.number().int().min(0).optional() });
const use = z.union([z.object({ percent: z.number().min(0).max(100) }), z.object({ usedBytes: z.number().min(0) })]);
const protocol = z.enum(['rpc', 'rest', 'metrics', 'nodeExporter', 'all']);

/** POST routes: body schema → the control call. Every route answers the new state. */
function routes(c: SimControl): Record<string, (body: unknown) => unknown> {
    const r =
        <S extends z.ZodType>(schema: S, run: (b: z.infer<S>) => unknown) =>
        (body: unknown) =>
            run(schema.parse(body ?? {}));
    return {
        '/halt': r(z.object({ node: nodeIdx.optional() }), (b) => c.halt(b.node)),
        '/resume': r(z.object({ node: nodeIdx.optional() }), (b) => c.resume(b.node)),
        '/catch-up': r(
            z.object({
                node: nodeIdx,
                durationMs: z.number().min(0).optional(),
                behindBlocks: z.number().int().min(0).optional(),
            }),
            (b) => c.catchUp(b.node, b)
        ),
        '/catch-up/clear': r(z.object({ node: nodeIdx }), (b) => c.clearCatchUp(b.node)),
        '/stale-block-time': r(z.object({ node: nodeIdx, seconds: z.number().min(0) }), (b) =>
            c.staleBlockTime(b.node, b.seconds)
        ),
        '/miss': r(
            z
                .object({ mode: z.enum(['absent', 'nil']), blocks: z.number().int().min(1).optional() })
                .extend(optValidator.shape),
            (b) => c.missSignatures(b)
        ),
        '/miss/clear': r(optValidator, (b) => c.clearMiss(b.validator)),
        '/jail': r(optValidator, (b) => c.jail(b.validator)),
        '/rank': r(optValidator.extend({ rank: z.number().int().min(1) }), (b) => c.setRank(b.rank, b.validator)),
        '/missed-counter': r(optValidator.extend({ n: z.number().int().min(0) }), (b) =>
            c.setMissedCounter(b.n, b.validator)
        ),
        '/unjail': r(optValidator, (b) => c.unjail(b.validator)),
        '/unbond': r(optValidator, (b) => c.unbond(b.validator)),
        '/tombstone': r(optValidator, (b) => c.tombstone(b.validator)),
        '/proposal': r(
            z.object({
                endsAtMs: z.number().optional(),
                endsInMs: z.number().optional(),
                title: z.string().optional(),
            }),
            (b) =>
                c.openProposal({ endsAtMs: b.endsAtMs ?? Date.now() + (b.endsInMs ?? 3 * 86_400_000), title: b.title })
        ),
        '/vote': r(optValidator.extend({ proposal: z.number().int().min(1), option: z.string().optional() }), (b) =>
            c.castVote(b.proposal, b)
        ),
        '/upgrade': r(
            z.object({ name: z.string().min(1), height: z.number().int().min(1), info: z.string().optional() }),
            (b) => c.scheduleUpgrade(b)
        ),
        '/upgrade/apply': r(z.object({}), () => c.applyUpgrade()),
        '/gov/legacy-only': r(z.object({ on: z.boolean() }), (b) => c.setGovLegacyOnly(b.on)),
        '/oracle/raise': r(optValidator.extend({ n: z.number().int().min(0) }), (b) =>
            c.raiseOracleMiss(b.n, b.validator)
        ),
        '/oracle/set': r(optValidator.extend({ n: z.number().int().min(0) }), (b) => c.setOracleMiss(b.n, b.validator)),
        '/oracle/reset': r(optValidator, (b) => c.resetOracleMiss(b.validator)),
        '/disk': r(z.intersection(z.object({ node: nodeIdx, mountpoint: z.string() }), use), (b) =>
            c.setDisk(b.node, b.mountpoint, b)
        ),
        '/disk/fill': r(
            z.object({
                node: nodeIdx,
                mountpoint: z.string(),
                percentPerHour: z.number().min(0).max(100_000),
                fromPercent: z.number().min(0).max(100).optional(),
            }),
            (b) => c.fillDisk(b.node, b.mountpoint, b.percentPerHour, b.fromPercent)
        ),
        '/memory': r(z.intersection(z.object({ node: nodeIdx }), use), (b) => c.setMemory(b.node, b)),
        '/load': r(z.object({ node: nodeIdx, load1: z.number().min(0) }), (b) => c.setLoad(b.node, b.load1)),
        '/peers': r(z.object({ node: nodeIdx, peers: z.number().int().min(0) }), (b) => c.setPeers(b.node, b.peers)),
        '/fault': r(
            z.object({
                node: nodeIdx,
                protocol,
                delayMs: z.number().min(0).optional(),
                status: z.number().int().min(0).max(599).optional(),
                drop: z.boolean().optional(),
                malformed: z.enum(['invalid', 'truncated']).nullable().optional(),
            }),
            ({ node, protocol: p, malformed, ...fault }) =>
                c.setFault(node, p, { ...fault, malformed: malformed ?? undefined })
        ),
        '/faults/clear': r(z.object({ node: nodeIdx.optional(), protocol: protocol.optional() }), (b) =>
            c.clearFaults(b.node, b.protocol)
        ),
        '/faults/reset': r(z.object({}), () => c.resetFaults()),
        '/produce-blocks': r(z.object({ count: z.number().int().min(1).max(1000) }), (b) => c.produceBlocks(b.count)),
    };
}

export const CONTROL_ROUTES = Object.keys(routes({} as SimControl));

export function controlHandler(c: SimControl, served = new Map<string, number>()): Handler {
    const table = routes(c);
    return async (req) => {
        if (req.method === 'GET' && (req.path === '/' || req.path === '/state')) return json(200, c.state());
        if (req.method === 'GET' && req.path === '/requests') return json(200, Object.fromEntries(served));
        const run = table[req.path];
        if (!run) return json(404, { error: `unknown route ${req.method} ${req.path}`, routes: CONTROL_ROUTES });
        if (req.method !== 'POST') return json(405, { error: 'use POST with a JSON body' });
        try {
            await run(req.body.trim() ? JSON.parse(req.body) : {});
            return json(200, c.state());
        } catch (err) {
            const message =
                err instanceof z.ZodError ? z.prettifyError(err) : err instanceof Error ? err.message : String(err);
            return json(400, { error: message });
        }
    };
}
