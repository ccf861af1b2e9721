// CometBFT Prometheus metrics (like :26660/metrics) as one node shows them (protocols.md §5.3).
// Namespace `cometbft` (or `tendermint` for 0.34-style nodes); every series carries chain_id.
import { goFloat } from './format';
import { type Handler, PROM_TYPE } from './http';
import type { SimNode } from './node';

export type MetricsNamespace = 'cometbft' | 'tendermint';

interface Family {
    name: string;
    help: string;
    type: 'gauge' | 'counter' | 'histogram';
    samples: [labels: Record<string, string>, value: number, suffix?: string][];
}

export function renderCometMetrics(node: SimNode, ns: MetricsNamespace): string {
    node.observe();
    const chain = node.chain;
    const head = node.headBlock;
    const prev = chain.block(head.height - 1);
    const set = head.validators;
    const absent = prev ? head.lastCommit.signatures.map((s, i) => (s.flag === 1 ? prev.validators[i] : null)) : [];
    const missing = absent.filter((e) => e !== null && e !== undefined);
    const m = node.metrics;
    const addr = { validator_address: node.privval.hexAddress };
    const syncing = node.catchingUp ? 1 : 0;
    const intervalS = chain.config.blockTimeMs / 1000;

    const families: Family[] = [
        { name: 'consensus_height', help: 'Height of the chain.', type: 'gauge', samples: [[{}, head.height + 1]] },
        {
            name: 'consensus_latest_block_height',
            help: 'The latest block height.',
            type: 'gauge',
            samples: [[{}, head.height]],
        },
        { name: 'consensus_validators', help: 'Number of validators.', type: 'gauge', samples: [[{}, set.length]] },
        {
            name: 'consensus_validators_power',
            help: 'Total power of all validators.',
            type: 'gauge',
            samples: [[{}, set.reduce((sum, e) => sum + e.power, 0)]],
        },
        {
            name: 'consensus_missing_validators',
            help: 'Number of validators who did not sign.',
            type: 'gauge',
            samples: [[{}, missing.length]],
        },
        {
            name: 'consensus_missing_validators_power',
            help: 'Total power of the missing validators.',
            type: 'gauge',
            samples: [[{}, missing.reduce((sum, e) => sum + (e?.power ?? 0), 0)]],
        },
        {
            name: 'consensus_byzantine_validators',
            help: 'Number of validators who tried to double sign.',
            type: 'gauge',
            samples: [[{}, 0]],
        },
        { name: 'consensus_rounds', help: 'Number of rounds.', type: 'gauge', samples: [[{}, 0]] },
        {
            name: 'consensus_block_interval_seconds',
            help: 'Time between this and the last block.',
            type: 'histogram',
            samples: [
                [{ le: '1' }, intervalS <= 1 ? head.height : 0, '_bucket'],
                [{ le: '2.5' }, intervalS <= 2.5 ? head.height : 0, '_bucket'],
                [{ le: '5' }, intervalS <= 5 ? head.height : 0, '_bucket'],
                [{ le: '+Inf' }, head.height, '_bucket'],
                [{}, head.height * intervalS, '_sum'],
                [{}, head.height, '_count'],
            ],
        },
        {
            name: 'mempool_size',
            help: 'Size of the mempool (number of uncommitted transactions).',
            type: 'gauge',
            samples: [[{}, 0]],
        },
        { name: 'p2p_peers', help: 'Number of peers.', type: 'gauge', samples: [[{}, node.peers]] },
    ];
    // The validator gauges exist only once the node's key has been in a set; missed_blocks only after a miss.
    if (m.validatorPower !== null) {
        families.push({
            name: 'consensus_validator_power',
            help: 'Power of a validator.',
            type: 'gauge',
            samples: [[addr, m.validatorPower]],
        });
    }
    if (m.lastSignedHeight !== null) {
        families.push({
            name: 'consensus_validator_last_signed_height',
            help: 'Last height signed by this validator if the node is a validator.',
            type: 'gauge',
            samples: [[addr, m.lastSignedHeight]],
        });
    }
    if (m.missedBlocks > 0) {
        families.push({
            name: 'consensus_validator_missed_blocks',
            help: 'Total missed blocks for a validator.',
            type: 'gauge',
            samples: [[addr, m.missedBlocks]],
        });
    }
    // 0.34 reports sync state under consensus_; 0.38 has separate blocksync/statesync subsystems.
    if (ns === 'tendermint') {
        families.push(
            {
                name: 'consensus_fast_syncing',
                help: 'Whether or not a node is fast syncing. 1 if yes, 0 if no.',
                type: 'gauge',
                samples: [[{}, syncing]],
            },
            {
                name: 'consensus_state_syncing',
                help: 'Whether or not a node is state syncing. 1 if yes, 0 if no.',
                type: 'gauge',
                samples: [[{}, 0]],
            }
        );
    } else {
        families.push(
            {
                name: 'blocksync_syncing',
                help: 'Whether or not a node is block syncing. 1 if yes, 0 if no.',
                type: 'gauge',
                samples: [[{}, syncing]],
            },
            {
                name: 'statesync_syncing',
                help: 'Whether or not a node is state syncing. 1 if yes, 0 if no.',
                type: 'gauge',
                samples: [[{}, 0]],
            }
        );
    }

    const lines: string[] = [];
    const chainLabel = { chain_id: chain.config.chainId };
    for (const f of families.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const name = `${ns}_${f.name}`;
        lines.push(`# HELP ${name} ${f.help}`, `# TYPE ${name} ${f.type}`);
        for (const [labels, value, suffix] of f.samples) {
            lines.push(`${name}${suffix ?? ''}{${formatLabels({ ...chainLabel, ...labels })}} ${goFloat(value)}`);
        }
    }
    return `${lines.join('\n')}\n`;
}

/** Label names in sorted order, except `le`, which client_golang always puts last. */
function formatLabels(labels: Record<string, string>): string {
    return Object.keys(labels)
        .sort((a, b) => (a === 'le' ? 1 : b === 'le' ? -1 : a < b ? -1 : 1))
        .map((k) => `${k}="${labels[k]}"`)
        .join(',');
}

export function cometMetricsHandler(node: SimNode, ns: MetricsNamespace): Handler {
    return (req) =>
        req.path === '/metrics'
            ? { status: 200, body: renderCometMetrics(node, ns), contentType: PROM_TYPE }
            : { status: 404, body: '404 page not found\n', contentType: 'text/plain; charset=utf-8' };
}
