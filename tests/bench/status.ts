// Status page benchmark (npm run bench:status): the public JSON and HTML of a status page under 50 concurrent
// visitors while the engine checks 10,000 monitors against the chain simulator, on the embedded database (PGlite).
// Prints, per target, p50/p99/max latency and requests per second, and the engine's scheduling lag (how late checks
// start) before and during the load. The visitors come from one address, as a flood would (the rate limit is lifted
// for the run). Not a test: the figures depend on the machine.
//   npm run bench:status -- --monitors 10000 --seconds 20 --connections 50
// With --split, the cluster profile: a `web` process serves the pages while a `worker` (this process) runs the
// checks, on PostgreSQL (DATABASE_URL, default the machine's) and Redis (REDIS_URL, default database 9, flushed).
//   npm run bench:status -- --split
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { companies, configurations, incidents, monitors, servers, services } from '../../server/db/schema';
import { createStatusPage, parseStatusPage } from '../../server/status-pages/pages';
import { startChainSim } from '../../tools/chain-sim';
import { startConsole, stopConsole } from '../cluster/processes';
import { testConfig, throwAwayPostgres } from '../server/helpers';

const { values: argv } = parseArgs({
    options: {
        monitors: { type: 'string', default: '10000' },
        seconds: { type: 'string', default: '20' },
        connections: { type: 'string', default: '50' },
        /** Seconds between the engine's start and the first measurement, so its first runs are spread out. */
        settle: { type: 'string', default: '60' },
        split: { type: 'boolean', default: false },
    },
});
const MONITORS = Number(argv.monitors);
const SECONDS = Number(argv.seconds);
const CONNECTIONS = Number(argv.connections);
const INTERVAL_S = 60;
const PAGE_MONITORS = 20;

interface Load {
    latency: { p50: number; p99: number; max: number };
    requests: { average: number };
    non2xx: number;
    errors: number;
}
/** autocannon in a child process: the visitors' own work must not run on the server's event loop. */
async function load(url: string): Promise<Load> {
    const bin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
    const { stdout } = await promisify(execFile)(
        process.execPath,
        [bin, '--json', '-c', String(CONNECTIONS), '-d', String(SECONDS), url],
        { maxBuffer: 64 * 1024 * 1024 }
    );
    return JSON.parse(stdout) as Load;
}

const dataDir = mkdtempSync(join(tmpdir(), 'nm-bench-status-'));
const sim = await startChainSim({ nodes: 2, blockTimeMs: 1000 });
const postgres = argv.split
    ? await throwAwayPostgres(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test')
    : null;
const redisUrl = argv.split ? (process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/9') : null;
const appSecret = randomBytes(32).toString('hex');
const config = (engineEnabled: boolean) =>
    testConfig({
        databaseUrl: postgres?.url ?? null,
        dataDir,
        appSecret,
        engineEnabled,
        logLevel: 'warn',
        statusRateLimitPerMinute: 1_000_000,
        ...(engineEnabled && redisUrl ? { role: 'worker' as const, redisUrl } : {}),
    });
if (redisUrl) {
    const { Redis } = await import('ioredis');
    const redis = new Redis(redisUrl);
    await redis.flushdb();
    redis.disconnect();
}

async function seed(app: FastifyInstance): Promise<void> {
    const db = app.ctx.db;
    const [company] = await db
        .insert(companies)
        .values({ name: 'Bench', maxConcurrentChecks: 256, allowedNetworks: ['127.0.0.0/8'] })
        .returning({ id: companies.id });
    const node = sim.nodes[0];
    if (!company || !node) throw new Error('no company or node');
    const [cfg] = await db
        .insert(configurations)
        .values({ companyId: company.id, name: 'Bench hub', chain: 'cosmoshub' })
        .returning({ id: configurations.id });
    if (!cfg) throw new Error('no configuration');
    const [srv] = await db
        .insert(servers)
        .values({ configurationId: cfg.id, name: 'sim-node', address: 'http://127.0.0.1' })
        .returning({ id: servers.id });
    if (!srv) throw new Error('no server');
    await db.insert(services).values({ serverId: srv.id, name: 'rpc', type: 'rpc', address: node.rpcUrl });
    const ids: number[] = [];
    for (let from = 0; from < MONITORS; from += 1000) {
        const rows = Array.from({ length: Math.min(1000, MONITORS - from) }, (_, k) => ({
            configurationId: cfg.id,
            serverId: srv.id,
            name: `blocks ${from + k}`,
            type: 'blockCheck' as const,
            configurationObject: JSON.stringify({ sleep_duration_seconds: INTERVAL_S }),
        }));
        ids.push(...(await db.insert(monitors).values(rows).returning({ id: monitors.id })).map((m) => m.id));
    }
    // A page as a team would publish it, with an incident and its updates to render.
    const shown = ids.slice(0, PAGE_MONITORS);
    await db.transaction(async (tx) => {
        const actor = { id: 0, username: 'bench', isSuperAdmin: true, isAdmin: true, companyId: company.id };
        const body = parseStatusPage({
            slug: 'bench',
            title: 'Bench validators',
            monitor_ids: shown,
            company_id: company.id,
        });
        await createStatusPage(tx, app.ctx.keys.secretsAtRest, actor as never, body);
    });
    await db.insert(incidents).values({
        id: '00000000-0000-4000-8000-00000000beef',
        companyId: company.id,
        kind: 'monitor',
        configurationId: cfg.id,
        configurationName: 'Bench hub',
        monitorId: shown[0],
        monitorName: 'blocks 0',
        payload: '{}',
        openedAt: new Date(Date.now() - 3_600_000),
    });
}

const percentile = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/** The engine's scheduling lag over `ms`: the lags of the checks that started meanwhile. */
async function lagDuring(app: FastifyInstance, ms: number, during?: Promise<unknown>) {
    const stats = app.ctx.engine?.stats.scheduler;
    if (!stats) throw new Error('no engine');
    const before = stats.started;
    await Promise.all([new Promise((r) => setTimeout(r, ms)), during]);
    const n = Math.min(stats.started - before, stats.lags.length);
    const lags = stats.lags.slice(-n).sort((a, b) => a - b);
    const round = (v: number) => v.toFixed(0);
    return {
        checks: n,
        p50: round(percentile(lags, 0.5)),
        p99: round(percentile(lags, 0.99)),
        max: round(lags.at(-1) ?? 0),
    };
}

const seeding = await buildApp(config(false));
await seeding.app.ready();
await seed(seeding.app);
await seeding.app.close();

const { app } = await buildApp(config(true));
const web =
    postgres && redisUrl
        ? await startConsole('web', {
              DATABASE_URL: postgres.url,
              REDIS_URL: redisUrl,
              APP_SECRET: appSecret,
              DATA_DIR: dataDir,
              STATUS_RATE_LIMIT_PER_MINUTE: '1000000',
          })
        : null;
const base = web?.url ?? (await app.listen({ port: 0, host: '127.0.0.1' }));
if (web) await app.ready();
const layout = web ? 'a web process and a worker (PostgreSQL + Redis)' : 'one process (PGlite)';
console.log(
    `${MONITORS} monitors at ${INTERVAL_S} s on ${layout}; settling ${argv.settle} s (load ${loadavg()[0]?.toFixed(2)})`
);
await new Promise((r) => setTimeout(r, Number(argv.settle) * 1000));

const quiet = await lagDuring(app, SECONDS * 1000);
const rows: string[][] = [];
const lagRows: string[][] = [['quiet', String(quiet.checks), quiet.p50, quiet.p99, quiet.max]];
for (const [label, path] of [
    ['public JSON', '/api/public/status/bench'],
    ['HTML page', '/status/bench'],
    ['badge', '/api/public/status/bench/badge.svg'],
] as const) {
    const run = load(`${base}${path}`);
    const lag = await lagDuring(app, SECONDS * 1000, run);
    const r = await run;
    rows.push([
        label,
        `${r.latency.p50}`,
        `${r.latency.p99}`,
        `${r.latency.max}`,
        r.requests.average.toFixed(0),
        String(r.non2xx + r.errors),
    ]);
    lagRows.push([`during ${label}`, String(lag.checks), lag.p50, lag.p99, lag.max]);
}

const table = (head: string[], body: string[][]) =>
    [head, ...body].map((r) => r.map((c, i) => (i === 0 ? c.padEnd(18) : c.padStart(9))).join(' ')).join('\n');
console.log(`\n${CONNECTIONS} connections, ${SECONDS} s each, load ${loadavg()[0]?.toFixed(2)}`);
console.log(table(['target', 'p50 ms', 'p99 ms', 'max ms', 'req/s', 'non-2xx'], rows));
console.log(`\nengine scheduling lag (ms)\n${table(['phase', 'checks', 'p50', 'p99', 'max'], lagRows)}`);

if (web) await stopConsole(web);
await app.close();
await sim.close();
await postgres?.drop();
rmSync(dataDir, { recursive: true, force: true });
