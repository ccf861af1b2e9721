// Prometheus page benchmark (npm run bench:metrics): renders GET /metrics for 10,000 monitors (the engine's memory
// filled with one observation per monitor, as after a minute of checks) and prints p50/p99/max render times, the
// page size and promtool's verdict. Not a test: the figures depend on the machine.
//   npm run bench:metrics -- --monitors 10000 --runs 30
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { buildApp } from '../../server/app';
import type { Engine } from '../../server/engine/engine';
import type { MonitorTarget } from '../../server/engine/targets';
import { companies } from '../../server/db/schema';
import { createPrometheus } from '../../server/metrics/prometheus';
import { testConfig } from '../server/helpers';

const { values: argv } = parseArgs({
    options: { monitors: { type: 'string', default: '10000' }, runs: { type: 'string', default: '30' } },
});
const count = Number(argv.monitors);
const TOKEN = randomBytes(16).toString('hex');
const { app } = await buildApp(testConfig({ metricsToken: TOKEN, engineEnabled: false, logLevel: 'warn' }));
await app.ctx.db.insert(companies).values({ name: 'Bench validators' });
const types = ['blockCheck', 'signMissCheck', 'urlCheck', 'nodeExporterDiskSpace', 'priceFeederMissCount'] as const;
const now = Date.now();
const entries = Array.from({ length: count }, (_, i) => ({
    target: {
        id: i + 1,
        name: `${types[i % types.length]} ${i}`,
        type: types[i % types.length],
        settings: {},
        key: '',
        configuration: {
            id: Math.floor(i / 50),
            name: `Configuration ${Math.floor(i / 50)}`,
            chain: 'cosmoshub',
            companyId: 1,
        },
        server: { id: Math.floor(i / 5), name: `node-${Math.floor(i / 5)}`, address: 'http://10.0.0.1' },
        services: [],
    } as MonitorTarget,
    observation: { checkedAt: now, succeededAt: now, durationMs: 12 + (i % 90), level: i % 97 === 0 ? 'error' : 'ok' },
    alerting: i % 97 === 0,
}));
// The engine's read side only: what the page reads of a running engine.
app.ctx.engine = {
    running: true,
    monitors: () => entries.values(),
    stats: { scheduler: { started: count * 4, skipped: 0, lags: [] }, monitors: count, inFlight: 3 },
} as unknown as Engine;

const times: number[] = [];
let page = '';
for (let i = 0; i < Number(argv.runs); i++) {
    const start = performance.now();
    const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    times.push(performance.now() - start);
    page = res.body;
}
times.sort((a, b) => a - b);
const direct: number[] = [];
const pageOnly = createPrometheus(app.ctx);
for (let i = 0; i < 10; i++) {
    const start = performance.now();
    await pageOnly.render();
    direct.push(performance.now() - start);
}
console.log(`render alone (no HTTP): ${direct.map((t) => t.toFixed(0)).join(', ')} ms`);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]?.toFixed(1);
const lint = spawnSync('promtool', ['check', 'metrics'], { input: page, encoding: 'utf8' });
console.log(`monitors ${count}, runs ${times.length}`);
console.log(`render p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${times.at(-1)?.toFixed(1)} ms`);
console.log(`page ${(page.length / 1024 / 1024).toFixed(2)} MiB, ${page.split('\n').length} lines`);
console.log(
    `promtool: ${lint.error ? 'not installed' : `${lint.status === 0 ? 'ok' : 'problems'} ${lint.stdout}${lint.stderr}`.trim()}`
);
app.ctx.engine = null;
await app.close();
