// `npm run demo`: the console on a throw-away database, wired to two simulated chains with real faults, so a
// newcomer sees red and orange rows on the dashboard within a minute. Ctrl-C stops everything and deletes the data.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { startChainSim } from './chain-sim';

const dataDir = mkdtempSync(join(tmpdir(), 'node-monitor-demo-'));
const password = 'demo-password';
const config = {
    ...loadConfig({ ...process.env, DATA_DIR: dataDir, ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: password }),
    databaseUrl: null,
    logLevel: 'warn' as const,
};

const hub = await startChainSim({ chainId: 'cosmoshub-sim', bech32Prefix: 'cosmos', nodes: 2, blockTimeMs: 1000 });
const kujira = await startChainSim({
    chainId: 'kaiyo-sim',
    bech32Prefix: 'kujira',
    nodes: 1,
    blockTimeMs: 1000,
    oracle: 'kujira',
});
const { app } = await buildApp(config);
await app.listen({ port: config.port, host: config.host });

let token = '';
async function api<T = { id: number }>(
    app: FastifyInstance,
    method: 'POST' | 'PUT',
    url: string,
    payload: object
): Promise<T> {
    const res = await app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
    if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode} ${res.body}`);
    return res.json() as T;
}

const login = await app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password } });
token = login.json().accessToken.token;
// The simulated chains listen on loopback, which a company reaches only through its allowed networks.
const company = await api(app, 'POST', '/api/companies', {
    name: 'Demo Validators',
    is_active: true,
    allowed_networks: ['127.0.0.0/8'],
});

async function node(
    configurationId: number,
    name: string,
    urls: { rpcUrl: string; restUrl: string; nodeExporterUrl: string }
) {
    const server = await api(app, 'POST', '/api/servers', {
        name,
        address: 'http://127.0.0.1',
        is_enabled: true,
        configuration_id: configurationId,
    });
    for (const [type, address] of [
        ['rpc', urls.rpcUrl],
        ['rest', urls.restUrl],
        ['node_exporter', urls.nodeExporterUrl],
    ]) {
        await api(app, 'POST', '/api/services', { name: type, type, address, is_enabled: true, server_id: server.id });
    }
    return server.id;
}

async function monitor(configurationId: number, serverId: number | null, name: string, type: string, settings: object) {
    await api(app, 'POST', '/api/monitors', {
        name,
        type,
        is_enabled: true,
        configuration_id: configurationId,
        server_id: serverId,
        configuration_object: JSON.stringify(settings),
    });
}

const fast = { sleep_duration_seconds: 5, alert_sleep_duration_minutes: 30 };
const [hubValidator, hubSentry, kujiraNode] = [hub.nodes[0], hub.nodes[1], kujira.nodes[0]];
if (!hubValidator || !hubSentry || !kujiraNode) throw new Error('the simulators started without nodes');

const hubCfg = await api(app, 'POST', '/api/configurations', {
    name: 'Cosmos Hub validator',
    chain: 'cosmoshub',
    is_enabled: true,
    company_id: company.id,
});
const validatorServer = await node(hubCfg.id, 'hub-validator', hubValidator);
const sentryServer = await node(hubCfg.id, 'hub-sentry', hubSentry);
for (const [id, label] of [
    [validatorServer, 'validator'],
    [sentryServer, 'sentry'],
] as const) {
    await monitor(hubCfg.id, id, `Blocks (${label})`, 'blockCheck', {
        ...fast,
        miss_tolerance: 3,
        miss_tolerance_period_seconds: 30,
    });
    await monitor(hubCfg.id, id, `Disk (${label})`, 'nodeExporterDiskSpace', {
        threshold: 80,
        alert_sleep_duration_minutes: 30,
        check_interval_seconds: 15,
    });
}
await monitor(hubCfg.id, validatorServer, 'Signed blocks', 'signMissCheck', {
    ...fast,
    miss_tolerance: 10,
    miss_tolerance_period_seconds: 120,
    valoper_address: hub.chain.ours.valoper,
});
await monitor(hubCfg.id, validatorServer, 'Active set', 'validatorOutOfActiveSet', {
    ...fast,
    valoper_address: hub.chain.ours.valoper,
});
await monitor(hubCfg.id, validatorServer, 'Jail budget', 'slashingWindow', {
    ...fast,
    valoper_address: hub.chain.ours.valoper,
});
await monitor(hubCfg.id, validatorServer, 'Governance votes', 'governanceVote', {
    ...fast,
    valoper_address: hub.chain.ours.valoper,
});
await monitor(hubCfg.id, validatorServer, 'Upgrades', 'upgradeWatch', { ...fast, grace_minutes: 30 });
await monitor(hubCfg.id, null, 'Public RPC reachable', 'urlCheck', {
    address: `${hubValidator.rpcUrl}/health`,
    allowed_attempts: 3,
});

const kujiraCfg = await api(app, 'POST', '/api/configurations', {
    name: 'Kujira validator',
    chain: 'kujira',
    is_enabled: true,
    company_id: company.id,
});
const kujiraServer = await node(kujiraCfg.id, 'kujira-validator', kujiraNode);
await monitor(kujiraCfg.id, kujiraServer, 'Blocks', 'blockCheck', {
    ...fast,
    miss_tolerance: 3,
    miss_tolerance_period_seconds: 30,
});
await monitor(kujiraCfg.id, kujiraServer, 'Active set', 'validatorOutOfActiveSet', {
    ...fast,
    valoper_address: kujira.chain.ours.valoper,
});
await monitor(kujiraCfg.id, kujiraServer, 'Price feeder', 'priceFeederMissCount', {
    ...fast,
    miss_tolerance: 100,
    miss_tolerance_period_seconds: 3600,
    valoper_address: kujira.chain.ours.valoper,
});
await monitor(kujiraCfg.id, kujiraServer, 'Disk', 'nodeExporterDiskSpace', {
    threshold: 80,
    alert_sleep_duration_minutes: 30,
    check_interval_seconds: 15,
});

// The faults the dashboard shows: a halted sentry, a jailed Kujira validator, a disk at 91%, a price feeder
// that keeps missing a few votes (a warning, below its tolerance).
hub.control.halt(1);
kujira.control.jail();
hub.control.setDisk(0, '/', { percent: 91 });
// Validator duty on the hub's Validator card: 30 % of the jail budget used, an unvoted proposal ending in 40 h,
// and an upgrade about five minutes ahead (the chain stops at its height until /upgrade/apply).
hub.control.setMissedCounter(Math.round(0.3 * 95));
hub.control.openProposal({ endsAtMs: Date.now() + 40 * 3_600_000, title: 'Adopt the v2 fee market' });
const upgradeHeight = hub.chain.height + 300;
hub.control.scheduleUpgrade({ name: 'v2.0.0', height: upgradeHeight });
const feederMisses = setInterval(() => kujira.control.raiseOracleMiss(2), 20_000);
kujira.control.raiseOracleMiss(3);

const url = `http://${config.host === '127.0.0.1' ? 'localhost' : config.host}:${config.port}`;
console.log(`\nNode Monitor demo is running on ${url}`);
console.log(`Sign in as "admin" with password "${password}".`);
console.log('Simulated chains:');
console.log(
    `  cosmoshub: control API ${hub.controlUrl} (sentry halted, validator disk at 91%, 30% of the jail budget used, an unvoted proposal, upgrade v2.0.0 at height ${upgradeHeight}, about 5 min ahead)`
);
console.log(`  kujira:    control API ${kujira.controlUrl} (validator jailed, price feeder missing votes)`);
console.log('Try: curl -XPOST <control API>/resume  or  /unjail  — and watch the dashboard recover. Ctrl-C stops.');
console.log(
    'Validator duty: curl -XPOST <control API>/vote -d \'{"proposal":1}\'  and, once the hub stops at the upgrade height, /upgrade/apply.\n'
);

let stopping = false;
async function stop() {
    if (stopping) return;
    stopping = true;
    clearInterval(feederMisses);
    await app.close();
    await hub.close();
    await kujira.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
