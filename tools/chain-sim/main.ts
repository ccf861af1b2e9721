// CLI: serve a simulated chain until SIGINT/SIGTERM, printing every URL and the control routes.
//   npx tsx tools/chain-sim/main.ts --nodes 2 --chain-id simchain-1 --prefix cosmos --block-time 1000 \
//       --oracle kujira --base-port 26600
import { parseArgs } from 'node:util';
import { CONTROL_ROUTES } from './control';
import { type SimOptions, startChainSim } from './index';

const ORACLES = ['kujira', 'umee', 'ojo', 'terra-classic', 'nibiru'] as const;

const { values } = parseArgs({
    options: {
        nodes: { type: 'string', default: '1' },
        'chain-id': { type: 'string', default: 'simchain-1' },
        prefix: { type: 'string', default: 'cosmos' },
        'block-time': { type: 'string', default: '1000' },
        validators: { type: 'string', default: '4' },
        window: { type: 'string', default: '100' },
        oracle: { type: 'string' },
        'base-port': { type: 'string' },
        'control-port': { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        namespace: { type: 'string', default: 'cometbft' },
        'device-error-label': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
    },
});

if (values.help) {
    console.log(
        'Usage: tsx tools/chain-sim/main.ts [--nodes N] [--chain-id ID] [--prefix P] [--block-time MS] [--validators N]\n' +
            '       [--window BLOCKS] [--oracle kujira|umee|ojo|terra-classic|nibiru] [--base-port PORT]\n' +
            '       [--control-port PORT] [--host 127.0.0.1] [--namespace cometbft|tendermint] [--device-error-label]'
    );
    process.exit(0);
}

const oracle = values.oracle as SimOptions['oracle'];
if (oracle && !ORACLES.includes(oracle)) {
    console.error(`unknown --oracle ${oracle}; use one of ${ORACLES.join(', ')}`);
    process.exit(2);
}
const int = (v: string | undefined) => (v === undefined ? undefined : Number.parseInt(v, 10));

const sim = await startChainSim({
    nodes: int(values.nodes),
    chainId: values['chain-id'],
    bech32Prefix: values.prefix,
    blockTimeMs: int(values['block-time']),
    validatorCount: int(values.validators),
    signedBlocksWindow: int(values.window),
    oracle: oracle ?? null,
    basePort: int(values['base-port']),
    controlPort: int(values['control-port']),
    host: values.host,
    metricsNamespace: values.namespace === 'tendermint' ? 'tendermint' : 'cometbft',
    nodeExporterDeviceErrorLabel: values['device-error-label'],
});

const ours = sim.chain.ours;
console.log(
    `chain-sim: chain ${sim.chain.config.chainId}, ${sim.chain.validators.length} validators, oracle ${oracle ?? 'none'}`
);
console.log(`our validator: ${ours.moniker}`);
console.log(
    `  valoper ${ours.valoper}\n  valcons ${ours.valcons}\n  hex     ${ours.hexAddress}\n  account ${ours.account}`
);
for (const n of sim.nodes) {
    console.log(`node ${n.index}${n.isValidatorNode ? ' (validator node)' : ''}:`);
    console.log(`  rpc           ${n.rpcUrl}\n  rest          ${n.restUrl}`);
    console.log(`  metrics       ${n.metricsUrl}\n  node_exporter ${n.nodeExporterUrl}`);
}
console.log(`control API: ${sim.controlUrl}  (GET / for state; POST JSON to:)`);
console.log(`  ${CONTROL_ROUTES.join(' ')}`);
console.log(`  e.g. curl -XPOST ${sim.controlUrl}/miss -d '{"mode":"absent","blocks":10}'`);

const shutdown = async (signal: string) => {
    console.log(`\n${signal}: stopping`);
    await sim.close();
    process.exit(0);
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
