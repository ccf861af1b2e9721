// Chain simulator entry point: builds the shared chain, one SimNode per simulated node, and serves each
// node's four ports (CometBFT RPC, Cosmos REST, CometBFT metrics, node_exporter) plus the control API.
import { SimChain } from './chain';
import { cometMetricsHandler } from './cometbft-metrics';
import { controlHandler, createControl, type SimControl } from './control';
import type { Protocol } from './faults';
import { type Handler, type SimServer, startServer } from './http';
import { SimNode } from './node';
import { nodeExporterHandler } from './node-exporter';
import { restHandler } from './rest';
import { rpcHandler } from './rpc';

export type { SimChain, SimValidator } from './chain';
export type { DiskUse, SimControl } from './control';
export type { Fault, Protocol } from './faults';
export type { SimNode } from './node';

export interface SimOptions {
    chainId?: string;
    bech32Prefix?: string;
    blockTimeMs?: number;
    validatorCount?: number;
    signedBlocksWindow?: number;
    oracle?: 'kujira' | 'umee' | 'ojo' | 'terra-classic' | 'nibiru' | null;
    nodes?: number;
    host?: string;
    metricsNamespace?: 'cometbft' | 'tendermint';
    controlPort?: number;
    /** Fixed ports: control on basePort, node i on basePort+10(i+1) + 0 rpc, 1 rest, 2 metrics, 3 node_exporter. */
    basePort?: number;
    /** Index of our validator in chain.validators (default 1, so it is not first in the set). */
    oursIndex?: number;
    /** Blocks of history kept before pruning (default 1000). */
    historyCap?: number;
    /** Back-dated blocks made at start (default 5). */
    initialBlocks?: number;
    minSignedPerWindow?: number;
    /** Staking param max_validators (default 100). */
    maxValidators?: number;
    downtimeJailSeconds?: number;
    /** Emit node_exporter ≥ 1.8's `device_error` label. */
    nodeExporterDeviceErrorLabel?: boolean;
    /** Start the block clock at once (default true); false for tests that call control.produceBlocks. */
    autoStart?: boolean;
}

export interface ChainSim {
    chain: SimChain;
    nodes: SimNode[];
    controlUrl: string;
    control: SimControl;
    close(): Promise<void>;
}

export async function startChainSim(opts: SimOptions = {}): Promise<ChainSim> {
    const validatorCount = opts.validatorCount ?? 4;
    const chain = await SimChain.create({
        chainId: opts.chainId ?? 'simchain-1',
        prefix: opts.bech32Prefix ?? 'cosmos',
        blockTimeMs: opts.blockTimeMs ?? 1000,
        validatorCount,
        oursIndex: Math.min(opts.oursIndex ?? 1, validatorCount - 1),
        signedBlocksWindow: opts.signedBlocksWindow ?? 100,
        minSignedPerWindow: opts.minSignedPerWindow ?? 0.05,
        downtimeJailSeconds: opts.downtimeJailSeconds ?? 600,
        oracle: opts.oracle ?? null,
        historyCap: opts.historyCap ?? 1000,
        initialBlocks: opts.initialBlocks ?? 5,
        bondDenom: 'stake',
        maxValidators: opts.maxValidators ?? 100,
    });
    // Node 0 is the validator node (holds our key); the others are sentries / full nodes.
    const nodes: SimNode[] = [];
    for (let i = 0; i < (opts.nodes ?? 1); i++) {
        const node = await SimNode.create(i, chain, i === 0);
        node.host.deviceErrorLabel = opts.nodeExporterDeviceErrorLabel ?? false;
        nodes.push(node);
    }
    // Our votes go missing while the validator node is down, like a real outage.
    chain.isSignerDown = (vi) => vi === chain.config.oursIndex && (nodes[0]?.haltedAt ?? null) !== null;
    chain.on('block', () => {
        for (const n of nodes) n.observe();
    });

    const host = opts.host ?? '127.0.0.1';
    const port = (offset: number) => (opts.basePort ? opts.basePort + offset : 0);
    const servers: SimServer[] = [];
    // Requests the nodes served, by path (heights as <n>), for benchmarks: GET /requests on the control port.
    const served = new Map<string, number>();
    const counted =
        (handler: Handler): Handler =>
        (req) => {
            const key = `${req.path.replace(/\/\d+(?=\/|$)/g, '/<n>')}${req.query.size > 0 ? '?…' : ''}`;
            served.set(key, (served.get(key) ?? 0) + 1);
            return handler(req);
        };
    const serve = async (p: number, handler: Handler, node?: SimNode, protocol?: Protocol) => {
        const server = await startServer(host, p, node ? counted(handler) : handler, () =>
            node && protocol ? node.faults.get(protocol) : undefined
        );
        servers.push(server);
        return server.baseUrl;
    };
    try {
        for (const n of nodes) {
            const base = 10 * (n.index + 1);
            n.rpcUrl = await serve(port(base), rpcHandler(n), n, 'rpc');
            n.restUrl = await serve(port(base + 1), restHandler(n), n, 'rest');
            const ns = opts.metricsNamespace ?? 'cometbft';
            n.metricsUrl = `${await serve(port(base + 2), cometMetricsHandler(n, ns), n, 'metrics')}/metrics`;
            n.nodeExporterUrl = `${await serve(port(base + 3), nodeExporterHandler(n.host), n, 'nodeExporter')}/metrics`;
        }
        const control = createControl(chain, nodes);
        const controlUrl = await serve(opts.controlPort ?? port(0), controlHandler(control, served));
        if (opts.autoStart !== false) chain.start();
        return {
            chain,
            nodes,
            controlUrl,
            control,
            async close() {
                await chain.stop();
                for (const n of nodes) n.clearCatchUp();
                chain.removeAllListeners();
                await Promise.all(servers.map((s) => s.close()));
            },
        };
    } catch (err) {
        await chain.stop();
        await Promise.all(servers.map((s) => s.close()));
        throw err;
    }
}
