// API benchmark (npm run bench:api): 20 companies, 1,000 configurations, 5,000 servers, 20,000 monitors and 50,000
// audit entries on the embedded database (PGlite); the server runs as a child process (`server/main.ts start`, engine
// on, checking a chain simulator that runs in another child) and autocannon loads the dashboard and list endpoints
// from this process with 50 authenticated connections. Then the gzip size of the JS a first visit loads.
// Two load models: every endpoint with 50 closed-loop connections (saturation: each connection sends its next request
// as soon as the last is answered, so latency there is mostly queueing), then the targets and the super admin's first
// pages at a fixed rate (--rate req/s evenly spaced, what many polling consoles send). The client runs on the same
// machine as the server and takes CPU from it: the load average is printed at the start, per row and at the end.
// The load sends Chromium's Accept-Encoding, as the console's pages do: `wire KB` is one answer as sent, `resp KB` decoded.
//   npm run bench:api                       (full run, ~8 min)
//   npm run bench:api -- --quick            (1/10 of the data, 5 s per endpoint)
//   npm run bench:api -- --skip-js --only 'configurations* page,servers* page,monitors* page,audit* page'
//   npm run bench:api -- --answer-cache-ms 0   (the server without its answer cache, to see what the cache earns)
// Prints a table and writes it as JSON to .tmp/bench-api.json. Not a test: the figures depend on the machine.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
    existsSync,
    mkdirSync,
    mkdtempSync,
    readdirSync,
    readFileSync,
    rmSync,
    statSync,
    writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { MonitorType } from '../../common/monitor-types';
import { hashPassword } from '../../server/auth/passwords';
import { openDatabase } from '../../server/db/client';
import { HEALTH_REUSE_MS } from '../../server/db/recent-read';
import { auditEntries, companies, configurations, monitors, servers, services, users } from '../../server/db/schema';

const { values: argv } = parseArgs({
    options: {
        quick: { type: 'boolean', default: false },
        seconds: { type: 'string' },
        'warmup-seconds': { type: 'string' },
        /** Seconds between the server's start and the first load, so the engine's first runs are under way. */
        settle: { type: 'string' },
        connections: { type: 'string', default: '50' },
        'sim-nodes': { type: 'string', default: '4' },
        'block-time': { type: 'string', default: '1000' },
        /** Read dist/ as it is instead of building the UI into a temporary directory. */
        'reuse-dist': { type: 'boolean', default: false },
        'skip-js': { type: 'boolean', default: false },
        'skip-load': { type: 'boolean', default: false },
        /** Run the server with the engine off, to tell the engine's share apart (diagnosis only). */
        'no-engine': { type: 'boolean', default: false },
        /** Requests per second of the fixed-rate pass over the four targets and the four first pages; 0 skips it. */
        rate: { type: 'string', default: '50' },
        /** Only the fixed-rate pass. */
        'skip-closed': { type: 'boolean', default: false },
        /** The server's ANSWER_CACHE_MS (0: no answer cache, and no remembered user behind a token either). */
        'answer-cache-ms': { type: 'string' },
        /** ANALYZE after seeding. PGlite runs no autovacuum/autoanalyze, so without it the planner has no statistics. */
        analyze: { type: 'boolean', default: false },
        /** Seed into this directory and keep it (for EXPLAIN afterwards); default a temp dir, removed at the end. */
        'data-dir': { type: 'string' },
        /** Comma-separated endpoint labels to run (default: all). */
        only: { type: 'string', default: '' },
        /** What the load sends as Accept-Encoding: Chromium's by default; `identity` for answers as they are. */
        'accept-encoding': { type: 'string', default: 'gzip, deflate, br, zstd' },
        out: { type: 'string', default: '.tmp/bench-api.json' },
        help: { type: 'boolean', short: 'h', default: false },
    },
});
if (argv.help) {
    console.log(
        'Usage: tsx tests/bench/api.ts [--quick] [--seconds 20] [--warmup-seconds 3] [--settle 30] [--connections 50]\n' +
            '       [--sim-nodes 4] [--block-time 1000] [--reuse-dist] [--skip-js] [--skip-load] [--only labels]\n' +
            '       [--rate 50] [--skip-closed] [--answer-cache-ms 1000] [--analyze] [--data-dir dir]\n' +
            "       [--accept-encoding 'gzip, deflate, br, zstd']\n" +
            '       [--out .tmp/bench-api.json]'
    );
    process.exit(0);
}

const QUICK = argv.quick;
const SCALE = QUICK ? 0.1 : 1;
const COMPANIES = 20;
const CONFIGS_PER_COMPANY = Math.round(50 * SCALE);
const SERVERS_PER_CONFIG = 5;
const MONITORS_PER_SERVER = 4;
const AUDIT_ENTRIES = Math.round(50_000 * SCALE);
const SECONDS = Number(argv.seconds ?? (QUICK ? 5 : 20));
const WARMUP_SECONDS = Number(argv['warmup-seconds'] ?? (QUICK ? 1 : 3));
const SETTLE_SECONDS = Number(argv.settle ?? (QUICK ? 5 : 30));
const CONNECTIONS = Number(argv.connections);
const RATE = Number(argv.rate);
const SIM_NODES = Number(argv['sim-nodes']);
const PASSWORD = 'bench-password-1';
/** A loopback port nothing listens on: checks against it fail at once with ECONNREFUSED. */
const DEAD = 'http://127.0.0.1:9';
const P99_TARGET_MS = 100;
const HEAVY_MS = 1000;
const HEAVY_CONNECTIONS = 10;
const JS_TARGET_BYTES = 350 * 1000;
const CORES = cpus().length;
const CLK_TCK = 100;
const MiB = 1024 * 1024;
const randomBasePort = () => 20_000 + 200 * Math.floor(Math.random() * 60);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 1) => (Number.isFinite(n) ? Math.round(n * 10 ** d) / 10 ** d : null);

/** Deterministic PRNG (mulberry32), so two runs seed the same rows. */
function prng(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

/** CPU seconds (user + system) and RSS of another process, from /proc. */
function procStats(pid: number | undefined): { cpuS: number; rssBytes: number } | null {
    if (!pid) return null;
    try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
        return { cpuS: (Number(fields[11]) + Number(fields[12])) / CLK_TCK, rssBytes: rss };
    } catch {
        return null;
    }
}

/** Busy and total jiffies of the whole machine. */
function machineCpu(): { busy: number; total: number } {
    const n = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    const total = n.reduce((a, b) => a + b, 0);
    return { busy: total - (n[3] ?? 0) - (n[4] ?? 0), total };
}

// ---------------------------------------------------------------------------------------------------------------
// autocannon (CommonJS, no bundled types): the part of its API used here.

interface CannonResult {
    latency: { p50: number; p97_5: number; p99: number; max: number; mean: number };
    requests: { average: number; total: number };
    throughput: { average: number };
    duration: number;
    non2xx: number;
    errors: number;
    timeouts: number;
    statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (opts: {
    url: string;
    connections: number;
    duration?: number;
    amount?: number;
    headers?: Record<string, string>;
    timeout?: number;
}) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

// ---------------------------------------------------------------------------------------------------------------
// Child processes: the chain simulator and the server. `node --import tsx` keeps each in one process, whose pid
// is the one whose CPU is read.

interface Child {
    child: ChildProcess;
    out: () => string;
}

function spawnTs(script: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp, what: string) {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env,
    });
    let out = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.length > 200_000) err = err.slice(-100_000);
    });
    return new Promise<Child & { match: RegExpExecArray }>((resolvePromise, reject) => {
        const timer = setTimeout(() => reject(new Error(`${what} did not start in 120 s:\n${out}\n${err}`)), 120_000);
        child.once('exit', (code) => {
            clearTimeout(timer);
            reject(new Error(`${what} exited with ${code}:\n${out}\n${err}`));
        });
        child.stdout?.on('data', (d: Buffer) => {
            if (out.length < 100_000) out += d.toString();
            const match = ready.exec(out);
            if (!match) return;
            clearTimeout(timer);
            child.removeAllListeners('exit');
            resolvePromise({ child, out: () => `${out}\n${err}`, match });
        });
    });
}

async function stopChild(c: ChildProcess | undefined): Promise<void> {
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await Promise.race([exited, sleep(15_000)]);
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}

interface Sim {
    child: ChildProcess;
    valoper: string;
    nodes: { rpc: string; rest: string; nodeExporter: string }[];
    controlUrl: string;
}

async function startSim(basePort: number): Promise<Sim> {
    const args = ['--nodes', String(SIM_NODES), '--base-port', String(basePort), '--block-time', argv['block-time']];
    const { child, out } = await spawnTs(
        'tools/chain-sim/main.ts',
        [...args, '--oracle', 'kujira', '--prefix', 'kujira', '--chain-id', 'kaiyo-sim'],
        process.env,
        /control API: (\S+)/,
        'chain-sim'
    );
    const text = out();
    const grab = (label: string) =>
        [...text.matchAll(new RegExp(`^\\s+${label}\\s+(\\S+)$`, 'gm'))].map((m) => m[1] ?? '');
    const rpc = grab('rpc');
    const rest = grab('rest');
    const nodeExporter = grab('node_exporter');
    const valoper = /valoper (\S+)/.exec(text)?.[1];
    const controlUrl = /control API: (\S+)/.exec(text)?.[1];
    if (!valoper || !controlUrl || rpc.length !== SIM_NODES)
        throw new Error(`cannot parse the chain-sim banner:\n${text}`);
    return {
        child,
        valoper,
        controlUrl,
        nodes: rpc.map((r, i) => ({ rpc: r, rest: rest[i] ?? '', nodeExporter: nodeExporter[i] ?? '' })),
    };
}

// ---------------------------------------------------------------------------------------------------------------
// Seeding, straight into the database before the server starts (PGlite is one process's)

/** Type mix of the engine benchmark: 30 / 20 / 15 / 15 / 10 / 10 %, interleaved. */
const MIX: [MonitorType, number][] = [
    ['blockCheck', 0.3],
    ['signMissCheck', 0.2],
    ['validatorOutOfActiveSet', 0.15],
    ['priceFeederMissCount', 0.15],
    ['nodeExporterDiskSpace', 0.1],
    ['urlCheck', 0.1],
];
function typeFor(i: number): MonitorType {
    const slot = (i % 20) / 20;
    let acc = 0;
    for (const [type, share] of MIX) {
        acc += share;
        if (slot < acc - 1e-9) return type;
    }
    return 'urlCheck';
}

function settingsFor(type: MonitorType, interval: number, valoper: string, rpc: string) {
    switch (type) {
        case 'blockCheck':
            return { sleep_duration_seconds: interval };
        case 'signMissCheck':
        case 'validatorOutOfActiveSet':
        case 'priceFeederMissCount':
            return { sleep_duration_seconds: interval, valoper_address: valoper };
        case 'nodeExporterDiskSpace':
            return { check_interval_seconds: interval };
        case 'urlCheck':
            return { address: `${rpc}/health` };
    }
}

interface Seeded {
    seconds: number;
    companies: number;
    users: number;
    configurations: number;
    servers: number;
    services: number;
    monitors: number;
    seededFailed: number;
    seededWarnings: number;
    auditEntries: number;
    adminUsername: string;
    superAdminUsername: string;
}

async function insertBatches<T>(rows: T[], size: number, insert: (batch: T[]) => Promise<unknown>): Promise<void> {
    for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

async function seed(dataDir: string, sim: Sim): Promise<Seeded> {
    const started = performance.now();
    const database = await openDatabase({ databaseUrl: null, dataDir });
    const db = database.db;
    const rand = prng(42);
    try {
        // One scrypt hash for every user: same password, and 41 hashes would cost seconds for nothing.
        const passwordHash = await hashPassword(PASSWORD);
        const companyRows = await db
            .insert(companies)
            .values(
                Array.from({ length: COMPANIES }, (_, i) => ({ name: `Company ${String(i + 1).padStart(2, '0')}` }))
            )
            .returning({ id: companies.id });
        const companyIds = companyRows.map((r) => r.id);
        const tag = (ci: number) => `c${String(ci + 1).padStart(2, '0')}`;
        await db.insert(users).values([
            { username: 'root', passwordHash, isSuperAdmin: true, isAdmin: true, companyId: null },
            ...companyIds.flatMap((companyId, ci) => [
                { username: `admin-${tag(ci)}`, passwordHash, isAdmin: true, companyId },
                { username: `user-${tag(ci)}`, passwordHash, isAdmin: false, companyId },
            ]),
        ]);

        const cfgValues = companyIds.flatMap((companyId, ci) =>
            Array.from({ length: CONFIGS_PER_COMPANY }, (_, k) => ({
                companyId,
                name: `${tag(ci)}-validator-${String(k + 1).padStart(3, '0')}`,
                chain: 'kujira',
            }))
        );
        const cfgs: { id: number; companyId: number; name: string }[] = [];
        await insertBatches(cfgValues, 1000, async (b) =>
            cfgs.push(
                ...(await db.insert(configurations).values(b).returning({
                    id: configurations.id,
                    companyId: configurations.companyId,
                    name: configurations.name,
                }))
            )
        );

        const srvValues = cfgs.flatMap((c) =>
            Array.from({ length: SERVERS_PER_CONFIG }, (_, k) => ({
                configurationId: c.id,
                name: `${c.name}-${k === 0 ? 'validator' : `sentry-${k}`}`,
                address: 'http://127.0.0.1',
            }))
        );
        const srvs: { id: number; configurationId: number; name: string }[] = [];
        await insertBatches(srvValues, 2000, async (b) =>
            srvs.push(
                ...(await db
                    .insert(servers)
                    .values(b)
                    .returning({ id: servers.id, configurationId: servers.configurationId, name: servers.name }))
            )
        );
        const cfgById = new Map(cfgs.map((c) => [c.id, c]));
        // 2 % of the servers are down (their services on a closed port): their monitors are the failed list.
        const dead = (si: number) => si % 50 === 7;

        const svcValues = srvs.flatMap((s, si) => {
            const node = sim.nodes[si % sim.nodes.length];
            if (!node) throw new Error('no sim node');
            const up = !dead(si);
            return [
                { serverId: s.id, name: 'rpc', type: 'rpc' as const, address: up ? node.rpc : `${DEAD}` },
                { serverId: s.id, name: 'rest', type: 'rest' as const, address: up ? node.rest : `${DEAD}` },
                {
                    serverId: s.id,
                    name: 'node_exporter',
                    type: 'node_exporter' as const,
                    address: up ? node.nodeExporter : `${DEAD}/metrics`,
                },
            ];
        });
        await insertBatches(svcValues, 2000, (b) => db.insert(services).values(b));

        const now = Date.now();
        let seededFailed = 0;
        let seededWarnings = 0;
        const monValues = srvs.flatMap((s, si) => {
            const node = sim.nodes[si % sim.nodes.length];
            if (!node) throw new Error('no sim node');
            return Array.from({ length: MONITORS_PER_SERVER }, (_, k) => {
                const i = si * MONITORS_PER_SERVER + k;
                const interval = 30 + Math.floor(rand() * 31); // 30–60 s
                const lastCheck = new Date(now - Math.floor(rand() * interval * 1000));
                if (dead(si)) {
                    seededFailed++;
                    const type = typeFor(i);
                    return {
                        configurationId: s.configurationId,
                        serverId: type === 'urlCheck' ? null : s.id,
                        name: `${s.name}-${type}`,
                        type,
                        configurationObject: JSON.stringify(
                            type === 'urlCheck'
                                ? { address: `${DEAD}/health` }
                                : settingsFor(type, interval, sim.valoper, DEAD)
                        ),
                        status: false,
                        lastError: 'connect ECONNREFUSED 127.0.0.1:9 (3 checks in a row could not read the node)',
                        lastCheck,
                    };
                }
                // 3 %: a URL check against the closed port that tolerates 100 failures, so it stays a warning.
                if (i % 100 === 11 || i % 100 === 45 || i % 100 === 78) {
                    seededWarnings++;
                    return {
                        configurationId: s.configurationId,
                        serverId: null,
                        name: `${s.name}-status-page-${k}`,
                        type: 'urlCheck' as const,
                        configurationObject: JSON.stringify({ address: `${DEAD}/health`, allowed_attempts: 100 }),
                        status: true,
                        lastError: `connect ECONNREFUSED 127.0.0.1:9 (failed attempt 1 of 100 allowed)`,
                        lastCheck,
                    };
                }
                const type = typeFor(i);
                return {
                    configurationId: s.configurationId,
                    serverId: type === 'urlCheck' ? null : s.id,
                    name: `${s.name}-${type}`,
                    type,
                    configurationObject: JSON.stringify(settingsFor(type, interval, sim.valoper, node.rpc)),
                    status: true,
                    lastError: null,
                    lastCheck,
                };
            });
        });
        const monIds: number[] = [];
        await insertBatches(monValues, 2000, async (b) =>
            monIds.push(...(await db.insert(monitors).values(b).returning({ id: monitors.id })).map((r) => r.id))
        );

        // Audit entries, oldest first over the last 30 days, each naming a monitor of its company's rows.
        const span = 30 * 86_400_000;
        const auditValues = Array.from({ length: AUDIT_ENTRIES }, (_, i) => {
            const mi = Math.floor(rand() * monValues.length);
            const m = monValues[mi];
            const mid = monIds[mi];
            const cfg = m ? cfgById.get(m.configurationId) : undefined;
            const srv = srvs[Math.floor(mi / MONITORS_PER_SERVER)];
            if (!m || !cfg || !srv || mid === undefined) throw new Error('bad audit ref');
            const engine = i % 4 !== 0;
            return {
                companyId: cfg.companyId,
                actorUserId: null,
                ip: engine ? null : '127.0.0.1',
                configurationId: cfg.id,
                configurationName: cfg.name,
                serverId: srv.id,
                serverName: srv.name,
                monitorId: mid,
                monitorName: m.name,
                message: engine
                    ? `Monitor "${m.name}": ${i % 3 === 0 ? 'Back to Healthy' : 'Entered Error: Latest block 1234 is 45 s old (limit 30 s)'}`
                    : `Monitor "${m.name}" updated by admin`,
                createdAt: new Date(now - span + Math.floor((i / AUDIT_ENTRIES) * span)),
            };
        });
        await insertBatches(auditValues, 2000, (b) => db.insert(auditEntries).values(b));
        if (argv.analyze) await db.execute(sql`analyze`);

        return {
            seconds: round((performance.now() - started) / 1000, 1) ?? 0,
            companies: companyIds.length,
            users: 1 + 2 * companyIds.length,
            configurations: cfgs.length,
            servers: srvs.length,
            services: svcValues.length,
            monitors: monIds.length,
            seededFailed,
            seededWarnings,
            auditEntries: auditValues.length,
            adminUsername: `admin-${tag(0)}`,
            superAdminUsername: 'root',
        };
    } finally {
        await database.close();
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Load

interface Endpoint {
    label: string;
    path: string;
    as: 'company admin' | 'super admin' | 'anonymous';
    /** One of the four endpoints with the p99 target. */
    target: boolean;
    /** A react-admin page with its own p99 target (ms), measured beside the unpaged array. */
    pageTargetMs?: number;
}

interface EndpointReport {
    label: string;
    path: string;
    as: string;
    mode: string;
    /** Seconds the server needed after the run to answer /api/health promptly again (requests left queued). */
    drainSeconds: number;
    responseBytes: number;
    /** Bytes on the wire for one request with the load's Accept-Encoding, after the run (the answer then kept). */
    wireBytes: number;
    items: number | null;
    singleRequestMs: number;
    latencyMs: { p50: number; p97_5: number; p99: number; max: number; mean: number | null };
    requestsPerSecond: number | null;
    requests: number;
    non2xx: number;
    errors: number;
    timeouts: number;
    statusCodes: Record<string, number>;
    serverCpuPercentOfOneCore: number | null;
    serverCpuMsPerRequest: number | null;
    benchCpuPercentOfOneCore: number | null;
    simCpuPercentOfOneCore: number | null;
    machineBusyPercent: number | null;
    serverRssMiB: number | null;
    loadAverage: (number | null)[];
    p99Target: 'pass' | 'fail' | null;
    p99TargetMs: number | null;
}

async function login(base: string, username: string): Promise<string> {
    const res = await fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: PASSWORD }),
    });
    if (!res.ok) throw new Error(`login ${username}: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { accessToken: { token: string } };
    return body.accessToken.token;
}

/**
 * Open-loop load: one request every 1/rate s, evenly spaced, whatever the answers (at most `maxInFlight` open, as
 * that many browsers would). autocannon's overallRate sends each connection's quota in a burst at the start of each
 * second, which measures 50 simultaneous requests once a second rather than a steady rate.
 */
async function openLoop(
    url: string,
    headers: Record<string, string>,
    rate: number,
    seconds: number,
    maxInFlight: number
): Promise<CannonResult> {
    const agent = new http.Agent({ keepAlive: true, maxSockets: maxInFlight });
    const latencies: number[] = [];
    const statusCodeStats: Record<string, { count: number }> = {};
    let errors = 0;
    let non2xx = 0;
    const pending: Promise<void>[] = [];
    const one = (intendedAt: number) =>
        new Promise<void>((done) => {
            const req = http.get(url, { agent, headers, timeout: 300_000 }, (res) => {
                res.resume();
                res.on('end', () => {
                    // Measured from when the request was due, so queueing in the agent counts (no coordinated omission).
                    latencies.push(performance.now() - intendedAt);
                    const code = String(res.statusCode ?? 0);
                    statusCodeStats[code] = { count: (statusCodeStats[code]?.count ?? 0) + 1 };
                    if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) > 299) non2xx++;
                    done();
                });
            });
            req.on('error', () => {
                errors++;
                done();
            });
        });
    const t0 = performance.now();
    const total = Math.round(rate * seconds);
    for (let i = 0; i < total; i++) {
        const due = t0 + (i * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 1) await sleep(wait);
        pending.push(one(due));
    }
    await Promise.all(pending);
    const duration = (performance.now() - t0) / 1000;
    agent.destroy();
    const sorted = latencies.sort((a, b) => a - b);
    const pct = (p: number) =>
        Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);
    return {
        latency: {
            p50: pct(50),
            p97_5: pct(97.5),
            p99: pct(99),
            max: Math.round(sorted.at(-1) ?? 0),
            mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
        },
        requests: { average: sorted.length / duration, total: sorted.length + errors },
        throughput: { average: 0 },
        duration,
        non2xx,
        errors,
        timeouts: 0,
        statusCodeStats,
    };
}

/**
 * Waits until /api/health answers within 100 ms (the server has worked off what a run left queued). Its database read
 * is reused for HEALTH_REUSE_MS, so each probe waits that long first: then it reads the database itself, behind
 * whatever abandoned requests still hold the connection.
 */
async function drain(base: string): Promise<number> {
    const t0 = performance.now();
    while (performance.now() - t0 < 600_000) {
        await sleep(HEALTH_REUSE_MS + 100);
        const t = performance.now();
        await fetch(`${base}/api/health`).then((r) => r.text());
        if (performance.now() - t < 100) break;
    }
    return round((performance.now() - t0) / 1000, 1) ?? 0;
}

/** The length of one answer's body as sent, before any decoding (fetch would decode a gzipped one). */
function bytesOnTheWire(url: string, headers: Record<string, string>): Promise<number> {
    return new Promise((done, fail) => {
        http.get(url, { headers }, (res) => {
            let n = 0;
            res.on('data', (d: Buffer) => {
                n += d.length;
            });
            res.on('end', () => done(n));
        }).on('error', fail);
    });
}

async function loadEndpoint(
    base: string,
    ep: Endpoint,
    headers: Record<string, string>,
    pids: { server?: number; sim?: number },
    rate = 0
): Promise<EndpointReport> {
    const url = `${base}${ep.path}`;
    // One request alone: its size, item count and unloaded time.
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    const body = await res.text();
    const singleRequestMs = performance.now() - t0;
    if (!res.ok) throw new Error(`${ep.label} as ${ep.as}: ${res.status} ${body.slice(0, 200)}`);
    let items: number | null = null;
    try {
        const parsed = JSON.parse(body) as unknown;
        if (Array.isArray(parsed)) items = parsed.length;
    } catch {}
    // A response that takes over HEAVY_MS alone (the super admin's whole lists) gets a bounded burst instead of a
    // timed run: 50 connections for 20 s would leave a queue of abandoned multi-megabyte requests behind.
    const heavy = singleRequestMs > HEAVY_MS && rate === 0;
    const connections = heavy ? Math.min(CONNECTIONS, HEAVY_CONNECTIONS) : CONNECTIONS;
    const timeout = 300;
    if (WARMUP_SECONDS > 0 && !heavy && rate === 0)
        await autocannon({ url, connections, duration: WARMUP_SECONDS, headers, timeout });
    await drain(base);
    const a = {
        server: procStats(pids.server),
        sim: procStats(pids.sim),
        bench: process.cpuUsage(),
        machine: machineCpu(),
        at: performance.now(),
    };
    const r = heavy
        ? await autocannon({ url, connections, amount: 2 * connections, headers, timeout })
        : rate > 0
          ? await openLoop(url, headers, rate, SECONDS, connections)
          : await autocannon({ url, connections, duration: SECONDS, headers, timeout });
    const b = {
        server: procStats(pids.server),
        sim: procStats(pids.sim),
        bench: process.cpuUsage(),
        machine: machineCpu(),
        at: performance.now(),
    };
    const drainSeconds = await drain(base);
    const wireBytes = await bytesOnTheWire(url, headers);
    const s = (b.at - a.at) / 1000;
    const serverCpuS = a.server && b.server ? b.server.cpuS - a.server.cpuS : Number.NaN;
    const ok = r.requests.total - r.non2xx;
    const p99 = r.latency.p99;
    const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats).map(([k, v]) => [k, v.count]));
    return {
        label: ep.label,
        path: ep.path,
        as: ep.as,
        mode: heavy
            ? `burst: ${connections} connections × 2 requests`
            : rate > 0
              ? `open loop: ${rate} req/s evenly spaced, ≤ ${connections} in flight, ${SECONDS} s`
              : `${connections} connections × ${SECONDS} s`,
        drainSeconds,
        responseBytes: Buffer.byteLength(body),
        wireBytes,
        items,
        singleRequestMs: round(singleRequestMs, 1) ?? 0,
        latencyMs: {
            p50: r.latency.p50,
            p97_5: r.latency.p97_5,
            p99,
            max: r.latency.max,
            mean: round(r.latency.mean, 1),
        },
        requestsPerSecond: round(r.requests.total / r.duration, 1),
        requests: r.requests.total,
        non2xx: r.non2xx,
        errors: r.errors,
        timeouts: r.timeouts,
        statusCodes,
        serverCpuPercentOfOneCore: round((serverCpuS / s) * 100, 0),
        serverCpuMsPerRequest: ok > 0 ? round((serverCpuS * 1000) / r.requests.total, 2) : null,
        benchCpuPercentOfOneCore: round(
            ((b.bench.user - a.bench.user + b.bench.system - a.bench.system) / 1e6 / s) * 100,
            0
        ),
        simCpuPercentOfOneCore: a.sim && b.sim ? round(((b.sim.cpuS - a.sim.cpuS) / s) * 100, 0) : null,
        machineBusyPercent: round(
            ((b.machine.busy - a.machine.busy) / Math.max(1, b.machine.total - a.machine.total)) * 100,
            0
        ),
        serverRssMiB: b.server ? round(b.server.rssBytes / MiB, 0) : null,
        loadAverage: loadavg().map((l) => round(l, 2)),
        p99Target:
            ep.target || ep.pageTargetMs
                ? p99 <= (ep.pageTargetMs ?? P99_TARGET_MS) && r.non2xx === 0 && r.errors === 0
                    ? 'pass'
                    : 'fail'
                : null,
        p99TargetMs: ep.pageTargetMs ?? (ep.target ? P99_TARGET_MS : null),
    };
}

const PAGE_P99_TARGET_MS = 50;
const SUPER_ADMIN_LISTS = ['configurations', 'servers', 'monitors', 'audit'] as const;
const PAGE_QUERY = `sort=${encodeURIComponent('["id","DESC"]')}&range=${encodeURIComponent('[0,24]')}&filter=${encodeURIComponent('{}')}`;

const ENDPOINTS: Endpoint[] = [
    { label: 'failed', path: '/api/monitors/failed', as: 'company admin', target: true },
    { label: 'warnings', path: '/api/monitors/warnings', as: 'company admin', target: true },
    { label: 'configurations', path: '/api/configurations', as: 'company admin', target: true },
    { label: 'audit', path: '/api/audit/latest', as: 'company admin', target: true },
    { label: 'servers', path: '/api/servers', as: 'company admin', target: false },
    { label: 'storage', path: '/api/servers/storage', as: 'company admin', target: false },
    { label: 'failed*', path: '/api/monitors/failed', as: 'super admin', target: false },
    { label: 'warnings*', path: '/api/monitors/warnings', as: 'super admin', target: false },
    { label: 'configurations*', path: '/api/configurations', as: 'super admin', target: false },
    { label: 'audit*', path: '/api/audit/latest', as: 'super admin', target: false },
    { label: 'servers*', path: '/api/servers', as: 'super admin', target: false },
    { label: 'monitors*', path: '/api/monitors', as: 'super admin', target: false },
    // The same lists as react-admin pages them (the console's first page of 25), answered in SQL.
    ...SUPER_ADMIN_LISTS.map(
        (name): Endpoint => ({
            label: `${name}* page`,
            path: `/api/${name === 'audit' ? 'audit/latest' : name}?${PAGE_QUERY}`,
            as: 'super admin',
            target: false,
            pageTargetMs: PAGE_P99_TARGET_MS,
        })
    ),
    { label: 'health', path: '/api/health', as: 'anonymous', target: false },
    // The auth guard plus one primary-key read: the floor of any authenticated endpoint.
    { label: 'me', path: '/api/users/me', as: 'company admin', target: false },
];

// ---------------------------------------------------------------------------------------------------------------
// Initial JS

interface JsReport {
    source: string;
    buildSeconds: number | null;
    initial: { file: string; bytes: number; gzipBytes: number }[];
    initialGzipBytes: number;
    initialBytes: number;
    css: { file: string; gzipBytes: number }[];
    largestLazy: { file: string; bytes: number; gzipBytes: number }[];
    lazyChunks: number;
    lazyGzipBytes: number;
    target: 'pass' | 'fail';
}

function measureJs(): JsReport {
    let dir = resolve('dist');
    let buildSeconds: number | null = null;
    let source = 'dist/ (reused)';
    if (!argv['reuse-dist']) {
        // A private outDir: dist/ may be in use by other runs.
        dir = mkdtempSync(join(tmpdir(), 'nm-bench-ui-'));
        const t0 = performance.now();
        execFileSync('npx', ['vite', 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'], {
            stdio: ['ignore', 'ignore', 'inherit'],
        });
        buildSeconds = round((performance.now() - t0) / 1000, 1);
        source = 'fresh vite build';
    }
    try {
        const html = readFileSync(join(dir, 'index.html'), 'utf8');
        const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]+)"`).exec(tag)?.[1];
        const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
        const initialFiles: string[] = [];
        const cssFiles: string[] = [];
        for (const t of tags) {
            if (t.startsWith('<script') && /type="module"/.test(t)) {
                const src = attr(t, 'src');
                if (src) initialFiles.push(src);
            } else if (t.startsWith('<link') && /rel="modulepreload"/.test(t)) {
                const href = attr(t, 'href');
                if (href) initialFiles.push(href);
            } else if (t.startsWith('<link') && /rel="stylesheet"/.test(t)) {
                const href = attr(t, 'href');
                if (href) cssFiles.push(href);
            }
        }
        const sized = (f: string) => {
            const buf = readFileSync(join(dir, f.replace(/^\//, '')));
            return {
                file: f.replace(/^\/assets\//, ''),
                bytes: buf.length,
                gzipBytes: gzipSync(buf, { level: 9 }).length,
            };
        };
        const initial = initialFiles.map(sized);
        const initialNames = new Set(initial.map((f) => f.file));
        const lazy = readdirSync(join(dir, 'assets'))
            .filter((f) => f.endsWith('.js') && !initialNames.has(f))
            .map((f) => sized(`/assets/${f}`))
            .sort((x, y) => y.gzipBytes - x.gzipBytes);
        const initialGzipBytes = initial.reduce((s, f) => s + f.gzipBytes, 0);
        return {
            source,
            buildSeconds,
            initial,
            initialGzipBytes,
            initialBytes: initial.reduce((s, f) => s + f.bytes, 0),
            css: cssFiles.map((f) => ({ file: f, gzipBytes: sized(f).gzipBytes })),
            largestLazy: lazy.slice(0, 10),
            lazyChunks: lazy.length,
            lazyGzipBytes: lazy.reduce((s, f) => s + f.gzipBytes, 0),
            target: initialGzipBytes <= JS_TARGET_BYTES ? 'pass' : 'fail',
        };
    } finally {
        if (!argv['reuse-dist']) rmSync(dir, { recursive: true, force: true });
    }
}

// ---------------------------------------------------------------------------------------------------------------

function printTable(rows: EndpointReport[]): void {
    const cols: [string, number, (r: EndpointReport) => string][] = [
        ['endpoint', 26, (r) => (r.path.includes('range=') ? `${r.path.split('?')[0]} p.1` : r.path)],
        ['as', 15, (r) => `${r.as}${r.mode.startsWith('burst') ? ' †' : r.mode.startsWith('open') ? ' @' : ''}`],
        ['items', 6, (r) => String(r.items ?? '–')],
        ['resp KB', 9, (r) => (r.responseBytes / 1000).toFixed(1)],
        ['wire KB', 9, (r) => (r.wireBytes / 1000).toFixed(1)],
        ['1 req ms', 9, (r) => r.singleRequestMs.toFixed(0)],
        ['p50', 7, (r) => String(r.latencyMs.p50)],
        ['p97.5', 7, (r) => String(r.latencyMs.p97_5)],
        ['p99', 7, (r) => String(r.latencyMs.p99)],
        ['max', 7, (r) => String(r.latencyMs.max)],
        ['req/s', 8, (r) => String(r.requestsPerSecond ?? '–')],
        ['non2xx', 7, (r) => String(r.non2xx)],
        ['err/to', 7, (r) => `${r.errors}/${r.timeouts}`],
        ['srv CPU%', 9, (r) => String(r.serverCpuPercentOfOneCore ?? '–')],
        ['ms CPU/req', 11, (r) => String(r.serverCpuMsPerRequest ?? '–')],
        ['sim%', 5, (r) => String(r.simCpuPercentOfOneCore ?? '–')],
        ['busy%', 6, (r) => String(r.machineBusyPercent ?? '–')],
        ['target', 10, (r) => (r.p99Target === null ? '' : `${r.p99Target.toUpperCase()}≤${r.p99TargetMs}`)],
    ];
    console.log(cols.map(([h, w], i) => (i < 2 ? h.padEnd(w) : h.padStart(w))).join(' '));
    for (const r of rows) console.log(cols.map(([, w, f], i) => (i < 2 ? f(r).padEnd(w) : f(r).padStart(w))).join(' '));
    console.log('latencies in ms; srv CPU% = server process, % of one core; busy% = whole machine, all cores');
    if (rows.some((r) => r.mode.startsWith('open')))
        console.log(
            `@ open loop: ${RATE} req/s evenly spaced, ≤ ${CONNECTIONS} in flight; latency from when each request was due`
        );
    if (rows.some((r) => r.mode.startsWith('burst')))
        console.log(
            `† over ${HEAVY_MS} ms alone: a burst of ${HEAVY_CONNECTIONS} connections × 2 requests instead of ${CONNECTIONS} × ${SECONDS} s`
        );
}

type Verdict = 'PASS' | 'FAIL' | 'not run';
const verdict = (list: EndpointReport[]): Verdict =>
    list.length === 0 ? 'not run' : list.every((r) => r.p99Target === 'pass') ? 'PASS' : 'FAIL';

/** One of the super admin's lists: its first page of 25 under both load models, beside the whole unpaged array. */
interface SuperAdminList {
    list: string;
    pageBytes: number | null;
    pageClosed: { p50: number; p99: number; verdict: Verdict } | null;
    pageFixedRate: { p50: number; p99: number; verdict: Verdict } | null;
    whole: {
        items: number | null;
        bytes: number;
        singleRequestMs: number;
        p50: number;
        p99: number;
        mode: string;
    } | null;
}

function superAdminLists(rows: EndpointReport[]): SuperAdminList[] {
    const figures = (r: EndpointReport | undefined) =>
        r ? { p50: r.latencyMs.p50, p99: r.latencyMs.p99, verdict: verdict([r]) } : null;
    return SUPER_ADMIN_LISTS.map((list) => {
        const page = rows.filter((r) => r.label === `${list}* page`);
        const whole = rows.find((r) => r.label === `${list}*` && !r.mode.startsWith('open'));
        return {
            list,
            pageBytes: page[0]?.responseBytes ?? null,
            pageClosed: figures(page.find((r) => !r.mode.startsWith('open'))),
            pageFixedRate: figures(page.find((r) => r.mode.startsWith('open'))),
            whole: whole
                ? {
                      items: whole.items,
                      bytes: whole.responseBytes,
                      singleRequestMs: whole.singleRequestMs,
                      p50: whole.latencyMs.p50,
                      p99: whole.latencyMs.p99,
                      mode: whole.mode,
                  }
                : null,
        };
    });
}

function printSuperAdminLists(lists: SuperAdminList[], seeded: Seeded): void {
    const kb = (n: number | null) => (n === null ? '–' : `${(n / 1000).toFixed(1)} kB`);
    const lat = (f: SuperAdminList['pageClosed']) => (f ? `${f.p50} / ${f.p99} ms ${f.verdict}` : 'not run');
    console.log(
        `\nthe super admin's lists (${seeded.configurations} configurations, ${seeded.servers} servers, ${seeded.monitors} monitors, ` +
            `${seeded.auditEntries} audit entries): first page of 25, p50 / p99, target p99 ≤ ${PAGE_P99_TARGET_MS} ms`
    );
    console.log(
        `  ${'list'.padEnd(15)} ${'page'.padStart(9)}  ${`${CONNECTIONS} connections`.padEnd(22)} ${`${RATE} req/s`.padEnd(22)} ` +
            'unpaged spec array: items, size, alone, p50 / p99 under load'
    );
    for (const l of lists) {
        const w = l.whole;
        console.log(
            `  ${l.list.padEnd(15)} ${kb(l.pageBytes).padStart(9)}  ${lat(l.pageClosed).padEnd(22)} ${lat(l.pageFixedRate).padEnd(22)} ` +
                (w
                    ? `${w.items ?? '–'}${l.list === 'audit' ? ' (the latest)' : ''}, ${kb(w.bytes)}, ${w.singleRequestMs.toFixed(0)} ms, ` +
                      `${w.p50} / ${w.p99} ms${w.mode.startsWith('burst') ? ' †' : ''}`
                    : 'not run')
        );
    }
}

function printJs(js: JsReport): void {
    const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
    console.log(`\ninitial JS (${js.source}${js.buildSeconds !== null ? `, built in ${js.buildSeconds} s` : ''}):`);
    for (const f of js.initial)
        console.log(`  ${f.file.padEnd(36)} ${kb(f.bytes).padStart(10)}  gzip ${kb(f.gzipBytes).padStart(9)}`);
    console.log(
        `  ${'total'.padEnd(36)} ${kb(js.initialBytes).padStart(10)}  gzip ${kb(js.initialGzipBytes).padStart(9)}` +
            `   target ≤ 350 kB: ${js.target.toUpperCase()}`
    );
    for (const c of js.css) console.log(`  css ${c.file}: gzip ${kb(c.gzipBytes)}`);
    console.log(`largest lazy chunks (of ${js.lazyChunks}, ${kb(js.lazyGzipBytes)} gzip in all):`);
    for (const f of js.largestLazy)
        console.log(`  ${f.file.padEnd(36)} ${kb(f.bytes).padStart(10)}  gzip ${kb(f.gzipBytes).padStart(9)}`);
}

async function main() {
    const report: Record<string, unknown> = {
        when: new Date().toISOString(),
        options: {
            quick: QUICK,
            secondsPerEndpoint: SECONDS,
            warmupSeconds: WARMUP_SECONDS,
            settleSeconds: SETTLE_SECONDS,
            connections: CONNECTIONS,
            simNodes: SIM_NODES,
            blockTimeMs: Number(argv['block-time']),
            engine: !argv['no-engine'],
            analyzeAfterSeed: argv.analyze,
            fixedRate: RATE,
            answerCacheMs:
                argv['answer-cache-ms'] === undefined ? 'server default (1000)' : Number(argv['answer-cache-ms']),
            server: 'child process: node --import tsx server/main.ts start (PGlite in a temp DATA_DIR, engine on)',
        },
        machine: { cores: CORES, node: process.version, loadAverageAtStart: loadavg().map((l) => round(l, 2)) },
    };
    console.log(
        `bench:api${QUICK ? ' --quick' : ''}: ${SECONDS} s per endpoint (+${WARMUP_SECONDS} s warm-up), ${CONNECTIONS} connections, ` +
            `${CORES} cores, load average ${loadavg()
                .map((l) => l.toFixed(2))
                .join(' ')}`
    );
    const only = new Set(argv.only.split(',').filter(Boolean));
    if (!argv['skip-load']) {
        const keep = argv['data-dir'];
        if (keep && existsSync(keep)) throw new Error(`--data-dir ${keep} exists; give a new directory`);
        const dataDir = keep ? resolve(keep) : mkdtempSync(join(tmpdir(), 'nm-bench-api-'));
        let sim: Sim | null = null;
        let server: ChildProcess | undefined;
        try {
            for (let attempt = 1; !sim; attempt++) {
                try {
                    sim = await startSim(randomBasePort());
                } catch (err) {
                    if (attempt >= 5 || !String(err).includes('EADDRINUSE')) throw err;
                }
            }
            // The sim's disks fill up with the node index (by design, for the demo): put them all at 60 %.
            for (let i = 0; i < SIM_NODES; i++) {
                const res = await fetch(`${sim.controlUrl}/disk`, {
                    method: 'POST',
                    headers: { 'content-type': 'application/json' },
                    body: JSON.stringify({ node: i, mountpoint: '/var/lib/cosmos', percent: 60 }),
                });
                if (!res.ok) throw new Error(`chain-sim /disk answered ${res.status}`);
            }
            const seeded = await seed(dataDir, sim);
            report.seed = seeded;
            console.log(
                `seeded in ${seeded.seconds} s: ${seeded.companies} companies, ${seeded.users} users, ${seeded.configurations} configurations, ` +
                    `${seeded.servers} servers, ${seeded.services} services, ${seeded.monitors} monitors ` +
                    `(${seeded.seededFailed} failed, ${seeded.seededWarnings} warnings), ${seeded.auditEntries} audit entries`
            );

            const env: NodeJS.ProcessEnv = {
                ...process.env,
                DATA_DIR: dataDir,
                PORT: '0',
                HOST: '127.0.0.1',
                LOG_LEVEL: 'warn',
                ENGINE_ENABLED: argv['no-engine'] ? 'false' : 'true',
                ALLOW_PRIVATE_TARGETS: 'true',
                UI_DIR: '',
                APP_SECRET: 'bench-secret-0123456789abcdef0123456789abcdef',
                TELEGRAM_API_URL: DEAD,
                CHAIN_DIRECTORY_URL: DEAD,
                CHAIN_DIRECTORY_TESTNET_URL: DEAD,
                LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
                ...(argv['answer-cache-ms'] !== undefined ? { ANSWER_CACHE_MS: argv['answer-cache-ms'] } : {}),
            };
            delete env.DATABASE_URL;
            const t0 = performance.now();
            const started = await spawnTs('server/main.ts', ['start'], env, /running on http:\/\/\S+:(\d+)/, 'server');
            server = started.child;
            const base = `http://127.0.0.1:${started.match[1]}`;
            const startSeconds = round((performance.now() - t0) / 1000, 1);
            console.log(`server pid ${server.pid} on ${base}, started in ${startSeconds} s (engine loaded)`);
            const adminToken = await login(base, seeded.adminUsername);
            const rootToken = await login(base, seeded.superAdminUsername);
            console.log(`settling ${SETTLE_SECONDS} s so the engine's first runs are under way…`);
            await sleep(SETTLE_SECONDS * 1000);
            const loadStartedAt = Date.now();
            const pids = { server: server.pid, sim: sim.child.pid };
            const rows: EndpointReport[] = [];
            let tokens = { admin: adminToken, root: rootToken, at: Date.now() };
            // Saturation: every endpoint with 50 closed-loop connections; then the targets and pages at a fixed rate.
            const passes: [Endpoint, number][] = [
                ...(argv['skip-closed'] ? [] : ENDPOINTS.map((ep): [Endpoint, number] => [ep, 0])),
                ...(RATE > 0
                    ? ENDPOINTS.filter((ep) => ep.target || ep.pageTargetMs).map((ep): [Endpoint, number] => [ep, RATE])
                    : []),
            ];
            for (const [ep, rate] of passes) {
                if (only.size && !only.has(ep.label)) continue;
                // Access tokens live 10 minutes; renew them every 5 so none expires mid-run.
                if (Date.now() - tokens.at > 5 * 60_000)
                    tokens = {
                        admin: await login(base, seeded.adminUsername),
                        root: await login(base, seeded.superAdminUsername),
                        at: Date.now(),
                    };
                const token = ep.as === 'company admin' ? tokens.admin : ep.as === 'super admin' ? tokens.root : null;
                const headers: Record<string, string> = {
                    'accept-encoding': argv['accept-encoding'],
                    ...(token ? { authorization: `Bearer ${token}` } : {}),
                };
                const r = await loadEndpoint(base, ep, headers, pids, rate);
                rows.push(r);
                console.log(
                    `  ${ep.path} as ${ep.as}${rate ? ` at ${rate} req/s` : ''}: p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, ${r.requestsPerSecond} req/s, ` +
                        `${r.non2xx} non-2xx, ${r.responseBytes} B, server CPU ${r.serverCpuPercentOfOneCore}% ` +
                        `(load ${r.loadAverage.join(' ')})`
                );
            }
            // What the engine did meanwhile: monitors checked since the load began, and the health lists now.
            const all = (await (
                await fetch(`${base}/api/configurations`, { headers: { authorization: `Bearer ${tokens.root}` } })
            ).json()) as { monitors: { last_check: string | null; status: boolean; last_error: string | null }[] }[];
            const mons = all.flatMap((c) => c.monitors);
            const engine = {
                monitors: mons.length,
                checkedSinceLoadStart: mons.filter((m) => m.last_check && Date.parse(m.last_check) >= loadStartedAt)
                    .length,
                failedNow: mons.filter((m) => !m.status).length,
                warningsNow: mons.filter((m) => m.status && m.last_error).length,
                loadSeconds: round((Date.now() - loadStartedAt) / 1000, 0),
            };
            const srv = procStats(server.pid);
            report.server = { startSeconds, rssMiBAtEnd: srv ? round(srv.rssBytes / MiB, 0) : null };
            report.engine = engine;
            report.endpoints = rows;
            const targetRows = rows.filter((r) => r.p99Target !== null && r.p99TargetMs === P99_TARGET_MS);
            const pageRows = rows.filter((r) => r.p99TargetMs === PAGE_P99_TARGET_MS);
            const open = (r: EndpointReport) => r.mode.startsWith('open');
            report.target = {
                p99Ms: P99_TARGET_MS,
                pass: verdict(targetRows.filter((r) => !open(r))),
                passAtFixedRate: verdict(targetRows.filter(open)),
                pageP99Ms: PAGE_P99_TARGET_MS,
                pagesPass: verdict(pageRows.filter((r) => !open(r))),
                pagesPassAtFixedRate: verdict(pageRows.filter(open)),
            };
            report.superAdminLists = superAdminLists(rows);
            console.log('');
            printTable(rows);
            console.log(
                `\nengine during the load: ${engine.checkedSinceLoadStart} of ${engine.monitors} monitors checked in ${engine.loadSeconds} s; ` +
                    `now ${engine.failedNow} failed, ${engine.warningsNow} warnings (all companies)`
            );
            printSuperAdminLists(report.superAdminLists as SuperAdminList[], seeded);
            const t = report.target as Record<
                'pass' | 'passAtFixedRate' | 'pagesPass' | 'pagesPassAtFixedRate',
                Verdict
            >;
            console.log(
                `p99 ≤ ${PAGE_P99_TARGET_MS} ms for the super admin's first pages of 25: ` +
                    `${CONNECTIONS} closed-loop connections ${t.pagesPass}; at ${RATE} req/s ${t.pagesPassAtFixedRate}`
            );
            console.log(
                `p99 ≤ ${P99_TARGET_MS} ms for the four company-admin targets: ` +
                    `${CONNECTIONS} closed-loop connections ${t.pass}; at ${RATE} req/s ${t.passAtFixedRate}`
            );
        } finally {
            await stopChild(server);
            await stopChild(sim?.child);
            if (!keep) rmSync(dataDir, { recursive: true, force: true });
        }
    }
    if (!argv['skip-js']) {
        const dist = resolve('dist/index.html');
        if (argv['reuse-dist'] && !existsSync(dist)) throw new Error('--reuse-dist: dist/index.html does not exist');
        const js = measureJs();
        if (argv['reuse-dist']) report.distBuiltAt = statSync(dist).mtime.toISOString();
        report.initialJs = js;
        printJs(js);
    }
    (report.machine as Record<string, unknown>).loadAverageAtEnd = loadavg().map((l) => round(l, 2));
    mkdirSync(join(argv.out, '..'), { recursive: true });
    writeFileSync(argv.out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(
        `\nwritten to ${argv.out}; load average at end ${loadavg()
            .map((l) => l.toFixed(2))
            .join(' ')}`
    );
}

main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
});
