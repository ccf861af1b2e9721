// Engine benchmark (npm run bench:engine): N monitors of mixed types on the embedded database (PGlite) against the
// chain simulator, which runs in a child process so the engine's CPU and memory are measured apart from it.
//   npm run bench:engine -- --monitors 10000 --minutes 3 --sim-nodes 10
//   npm run bench:engine -- --monitors 500 --minutes 0.5          (smoke run)
// Prints a table and writes it as JSON to .tmp/bench-engine.json. Not a test: the figures depend on the machine.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { MonitorType } from '../../common/monitor-types';
import { buildApp } from '../../server/app';
import { companies, configurations, monitors, servers, services } from '../../server/db/schema';
import { testConfig } from '../server/helpers';

const { values: argv } = parseArgs({
    options: {
        monitors: { type: 'string', default: '10000' },
        minutes: { type: 'string', default: '3' },
        'sim-nodes': { type: 'string', default: '10' },
        'base-port': { type: 'string', default: '' },
        'warmup-seconds': { type: 'string', default: '60' },
        /** Keep no check history (raw checks and rollups), to tell its share apart. */
        'no-history': { type: 'boolean', default: false },
        /** restart: seed, then start a new app on the data (first runs spread over each interval); event: bulk create. */
        load: { type: 'string', default: 'restart' },
        /** The sim's block time; 1000 ms is 5–6× faster than most Cosmos chains, so signMissCheck reads more commits. */
        'block-time': { type: 'string', default: '1000' },
        /** The bench company's max_concurrent_checks (engine quota); the company default when not given. */
        'company-slots': { type: 'string', default: '' },
        out: { type: 'string', default: '.tmp/bench-engine.json' },
        help: { type: 'boolean', short: 'h', default: false },
    },
});
if (argv.help) {
    console.log(
        'Usage: tsx tests/bench/engine.ts [--monitors 10000] [--minutes 3] [--sim-nodes 10] [--warmup-seconds 60]\n' +
            '       [--load restart|event] [--block-time 1000] [--company-slots N] [--base-port PORT]\n' +
            '       [--out .tmp/bench-engine.json]'
    );
    process.exit(0);
}

const MONITORS = Number(argv.monitors);
const RUN_MS = Number(argv.minutes) * 60_000;
const SIM_NODES = Number(argv['sim-nodes']);
const WARMUP_MS = Math.min(Number(argv['warmup-seconds']) * 1000, RUN_MS / 2);
const COMPANY_SLOTS = argv['company-slots'] ? Number(argv['company-slots']) : undefined;
const BLOCK_TIME_MS = Number(argv['block-time']);
const LOAD = argv.load === 'event' ? 'event' : 'restart';
// Below the ephemeral range (32768+), where the engine's own outgoing connections would collide with it.
const randomBasePort = () => 20_000 + 200 * Math.floor(Math.random() * 60);
let BASE_PORT = argv['base-port'] ? Number(argv['base-port']) : randomBasePort();
const CORES = cpus().length;
const CLK_TCK = 100; // /proc/<pid>/stat times are in USER_HZ, 100 on Linux
if (!(MONITORS > 0 && RUN_MS > 0 && SIM_NODES > 0))
    throw new Error('--monitors, --minutes and --sim-nodes must be > 0');

// ---------------------------------------------------------------------------------------------------------------
// Small helpers

/** Deterministic PRNG (mulberry32), so two runs seed the same monitors. */
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

function percentile(sorted: number[], p: number): number {
    if (sorted.length === 0) return Number.NaN;
    const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
    return sorted[i] ?? Number.NaN;
}

/** `gc()` without --expose-gc on the command line (npm run passes no node flags). */
function collectGarbage(): void {
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MiB = 1024 * 1024;
const round = (n: number, d = 1) => (Number.isFinite(n) ? Math.round(n * 10 ** d) / 10 ** d : null);

/** CPU seconds (user + system) and RSS of another process, from /proc. */
function procStats(pid: number | undefined): { cpuS: number; rssBytes: number; hwmBytes: number } | null {
    if (!pid) return null;
    try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const cpuS = (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime, stime (fields 14, 15)
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
        return { cpuS, rssBytes: kb('VmRSS'), hwmBytes: kb('VmHWM') };
    } catch {
        return null;
    }
}

/** Busy and total jiffies of the whole machine, to tell what else was running. */
function machineCpu(): { busy: number; total: number } {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const n = line.trim().split(/\s+/).slice(1).map(Number);
    const total = n.reduce((a, b) => a + b, 0);
    const idle = (n[3] ?? 0) + (n[4] ?? 0);
    return { busy: total - idle, total };
}

// ---------------------------------------------------------------------------------------------------------------
// The simulator, in a child process

interface SimInfo {
    child: ChildProcess;
    valoper: string;
    nodes: { rpc: string; rest: string; metrics: string; nodeExporter: string }[];
    controlUrl: string;
}

async function startSim(): Promise<SimInfo> {
    // `node --import tsx` runs the simulator in this one child (npx/tsx would add wrapper processes), so its pid
    // is the process whose CPU we read.
    const child = spawn(
        process.execPath,
        [
            '--import',
            'tsx',
            'tools/chain-sim/main.ts',
            '--nodes',
            String(SIM_NODES),
            '--base-port',
            String(BASE_PORT),
            '--block-time',
            String(BLOCK_TIME_MS),
            '--oracle',
            'kujira',
            '--prefix',
            'kujira',
            '--chain-id',
            'kaiyo-sim',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] }
    );
    let out = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => {
        err += d.toString();
    });
    return await new Promise<SimInfo>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`chain-sim did not start in 30 s:\n${out}\n${err}`)), 30_000);
        child.once('exit', (code) => reject(new Error(`chain-sim exited with ${code}:\n${out}\n${err}`)));
        child.stdout?.on('data', (d: Buffer) => {
            out += d.toString();
            const control = /control API: (\S+)/.exec(out);
            if (!control?.[1]) return;
            clearTimeout(timer);
            const valoper = /valoper (\S+)/.exec(out)?.[1];
            const grab = (label: string) =>
                [...out.matchAll(new RegExp(`^\\s+${label}\\s+(\\S+)$`, 'gm'))].map((m) => m[1] ?? '');
            const rpc = grab('rpc');
            const rest = grab('rest');
            const metrics = grab('metrics');
            const nodeExporter = grab('node_exporter');
            if (!valoper || rpc.length !== SIM_NODES) {
                reject(new Error(`cannot parse the chain-sim banner:\n${out}`));
                return;
            }
            resolve({
                child,
                valoper,
                controlUrl: control[1],
                nodes: rpc.map((r, i) => ({
                    rpc: r,
                    rest: rest[i] ?? '',
                    metrics: metrics[i] ?? '',
                    nodeExporter: nodeExporter[i] ?? '',
                })),
            });
        });
    });
}

async function stopSim(sim: SimInfo | null): Promise<void> {
    const child = sim?.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(5000)]);
    if (child.exitCode === null) child.kill('SIGKILL');
}

// ---------------------------------------------------------------------------------------------------------------
// Seeding

/** Type mix of the issue: 30 / 20 / 15 / 15 / 10 / 10 %. */
const MIX: [MonitorType, number][] = [
    ['blockCheck', 0.3],
    ['signMissCheck', 0.2],
    ['validatorOutOfActiveSet', 0.15],
    ['priceFeederMissCount', 0.15],
    ['nodeExporterDiskSpace', 0.1],
    ['urlCheck', 0.1],
];

function typeFor(i: number): MonitorType {
    // Interleaved by position in a block of 20, so every prefix of the list has the same mix.
    const slot = (i % 20) / 20;
    let acc = 0;
    for (const [type, share] of MIX) {
        acc += share;
        if (slot < acc - 1e-9) return type;
    }
    return 'urlCheck';
}

function settingsFor(type: MonitorType, interval: number, valoper: string, node: SimInfo['nodes'][number]) {
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
            return { address: `${node.rpc}/health` };
    }
}

async function seed(app: FastifyInstance, sim: SimInfo): Promise<{ ms: number; byType: Record<string, number> }> {
    const started = performance.now();
    const db = app.ctx.db;
    // The simulator listens on loopback: the company's allowed networks open it, as an operator would.
    const [company] = await db
        .insert(companies)
        .values({ name: 'Bench', maxConcurrentChecks: COMPANY_SLOTS, allowedNetworks: ['127.0.0.0/8'] })
        .returning({ id: companies.id });
    if (!company) throw new Error('no company');
    // One configuration and one server per sim node, with its four services.
    const serverIds: number[] = [];
    const configIds: number[] = [];
    for (const [i, n] of sim.nodes.entries()) {
        const [cfg] = await db
            .insert(configurations)
            .values({ companyId: company.id, name: `Bench node ${i}`, chain: 'kujira' })
            .returning({ id: configurations.id });
        if (!cfg) throw new Error('no configuration');
        const [srv] = await db
            .insert(servers)
            .values({ configurationId: cfg.id, name: `sim-node-${i}`, address: 'http://127.0.0.1' })
            .returning({ id: servers.id });
        if (!srv) throw new Error('no server');
        await db.insert(services).values([
            { serverId: srv.id, name: 'rpc', type: 'rpc', address: n.rpc },
            { serverId: srv.id, name: 'rest', type: 'rest', address: n.rest },
            { serverId: srv.id, name: 'prometheus', type: 'prometheus', address: n.metrics },
            { serverId: srv.id, name: 'node_exporter', type: 'node_exporter', address: n.nodeExporter },
        ]);
        configIds.push(cfg.id);
        serverIds.push(srv.id);
    }
    const rand = prng(42);
    const byType: Record<string, number> = {};
    const BATCH = 1000;
    for (let from = 0; from < MONITORS; from += BATCH) {
        const rows = [];
        for (let i = from; i < Math.min(MONITORS, from + BATCH); i++) {
            const type = typeFor(i);
            const k = Math.floor(rand() * SIM_NODES);
            const node = sim.nodes[k];
            const configurationId = configIds[k];
            if (!node || configurationId === undefined) throw new Error('bad node index');
            const interval = 30 + Math.floor(rand() * 31); // 30–60 s
            byType[type] = (byType[type] ?? 0) + 1;
            rows.push({
                configurationId,
                serverId: type === 'urlCheck' ? null : (serverIds[k] ?? null),
                name: `${type}-${i}`,
                type,
                configurationObject: JSON.stringify(settingsFor(type, interval, sim.valoper, node)),
            });
        }
        await db.insert(monitors).values(rows);
    }
    return { ms: performance.now() - started, byType };
}

// ---------------------------------------------------------------------------------------------------------------
// Measurement

/** Requests the simulator's nodes served, by endpoint (the engine reads on a thread of its own, so they are counted there). */
async function countEgress(sim: SimInfo | null): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (!sim) return counts;
    const served = (await (await fetch(`${sim.controlUrl}/requests`)).json()) as Record<string, number>;
    for (const [path, n] of Object.entries(served)) {
        const key = path.replace(/\/(cosmosvaloper|kujiravaloper|kujiravalcons)1[0-9a-z]+/g, '/<addr>');
        counts.set(key, (counts.get(key) ?? 0) + n);
    }
    return counts;
}

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

interface Snapshot {
    at: number;
    started: number;
    skipped: number;
    rows: number;
    flushes: number;
    failures: number;
    cpu: NodeJS.CpuUsage;
    sim: ReturnType<typeof procStats>;
    machine: ReturnType<typeof machineCpu>;
}

interface PhaseReport {
    seconds: number;
    checks: number;
    checksPerSecond: number | null;
    lagMs: { samples: number; p50: number | null; p90: number | null; p99: number | null; max: number | null };
    skippedCycles: number;
    cpuPercentOfOneCore: number | null;
    cpuPercentOfMachine: number | null;
    dbRowsPerSecond: number | null;
    dbFlushesPerSecond: number | null;
    dbFlushFailures: number;
    eventLoopDelayMs: { p50: number | null; p99: number | null; max: number | null };
    peakRssMiB: number | null;
    sim: { cpuPercentOfOneCore: number | null; rssMiB: number | null } | null;
    /** Busy share of all cores that was neither the engine process nor the simulator (other workers). */
    otherLoadPercentOfMachine: number | null;
}

function phase(
    a: Snapshot,
    b: Snapshot,
    lags: number[],
    eld: ReturnType<typeof monitorEventLoopDelay>,
    peakRss: number
): PhaseReport {
    const s = (b.at - a.at) / 1000;
    const sorted = [...lags].sort((x, y) => x - y);
    const cpuS = (b.cpu.user - a.cpu.user + b.cpu.system - a.cpu.system) / 1e6;
    const simCpuS = a.sim && b.sim ? b.sim.cpuS - a.sim.cpuS : null;
    const totalJ = b.machine.total - a.machine.total;
    const busyShare = totalJ > 0 ? (b.machine.busy - a.machine.busy) / totalJ : Number.NaN;
    const ownShare = (cpuS + (simCpuS ?? 0)) / s / CORES;
    const ns = (v: number) => round(v / 1e6, 1);
    return {
        seconds: round(s, 1) ?? 0,
        checks: b.started - a.started,
        checksPerSecond: round((b.started - a.started) / s, 1),
        lagMs: {
            samples: sorted.length,
            p50: round(percentile(sorted, 50), 1),
            p90: round(percentile(sorted, 90), 1),
            p99: round(percentile(sorted, 99), 1),
            max: round(sorted.at(-1) ?? Number.NaN, 1),
        },
        skippedCycles: b.skipped - a.skipped,
        cpuPercentOfOneCore: round((cpuS / s) * 100, 1),
        cpuPercentOfMachine: round((cpuS / s / CORES) * 100, 1),
        dbRowsPerSecond: round((b.rows - a.rows) / s, 1),
        dbFlushesPerSecond: round((b.flushes - a.flushes) / s, 2),
        dbFlushFailures: b.failures - a.failures,
        eventLoopDelayMs: { p50: ns(eld.percentile(50)), p99: ns(eld.percentile(99)), max: ns(eld.max) },
        peakRssMiB: round(peakRss / MiB, 0),
        sim:
            simCpuS === null
                ? null
                : {
                      cpuPercentOfOneCore: round((simCpuS / s) * 100, 1),
                      rssMiB: round((b.sim?.rssBytes ?? 0) / MiB, 0),
                  },
        otherLoadPercentOfMachine: round(Math.max(0, busyShare - ownShare) * 100, 1),
    };
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
    const dataDir = mkdtempSync(join(tmpdir(), 'nm-bench-engine-'));
    const logs: string[] = [];
    const logStream = new Writable({
        write(chunk: Buffer, _enc, done) {
            logs.push(chunk.toString('utf8'));
            done();
        },
    });
    let sim: SimInfo | null = null;
    let app: FastifyInstance | null = null;
    const config = testConfig({
        databaseUrl: null,
        dataDir,
        engineEnabled: false,
        uiDir: null,
        logLevel: 'warn',
        telegramApiUrl: 'http://127.0.0.1:9', // nothing is sent: the bench creates no notification channel
        history: { enabled: !argv['no-history'], rawHours: 48, fiveMinuteDays: 90, hourlyDays: 730 },
    });
    try {
        console.log(
            `bench:engine: ${MONITORS} monitors, history ${argv['no-history'] ? 'off' : 'on'}, ${argv.minutes} min (warm-up ${WARMUP_MS / 1000} s), ${SIM_NODES} sim nodes, ` +
                `load by ${LOAD}, ${CORES} cores, load average ${loadavg()
                    .map((l) => l.toFixed(2))
                    .join(' ')}`
        );
        for (let attempt = 1; !sim; attempt++) {
            try {
                sim = await startSim();
            } catch (err) {
                // Another worker may hold a port of the block: try another block.
                if (attempt >= 5 || argv['base-port'] || !String(err).includes('EADDRINUSE')) throw err;
                BASE_PORT = randomBasePort();
            }
        }
        // The sim's data disks fill up with the node index (node 9 is 100 % full, by design for the demo); a
        // healthy bench wants every verdict ok, so put them all at 60 %.
        for (let i = 0; i < SIM_NODES; i++) {
            const res = await fetch(`${sim.controlUrl}/disk`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ node: i, mountpoint: '/var/lib/cosmos', percent: 60 }),
            });
            if (!res.ok) throw new Error(`chain-sim /disk answered ${res.status}`);
        }
        console.log(
            `chain-sim pid ${sim.child.pid}, ${sim.nodes.length} nodes from port ${BASE_PORT}, valoper ${sim.valoper}`
        );

        let seeded: Awaited<ReturnType<typeof seed>>;
        let loadMs: number;
        if (LOAD === 'restart') {
            // Seed with the engine off, then start the app again on the same data: the engine loads every monitor
            // at start and spreads the first runs over each interval, as after a restart.
            ({ app } = await buildApp(config, { logStream }));
            seeded = await seed(app, sim);
            await app.close();
            app = null;
            // Collect the seeding app's database (its WASM memory) now, or it inflates the engine's peak RSS.
            collectGarbage();
            await sleep(200);
            collectGarbage();
            const t0 = performance.now();
            ({ app } = await buildApp({ ...config, engineEnabled: true }, { logStream }));
            loadMs = performance.now() - t0;
        } else {
            // Bulk create on a running engine: one MONITOR_CREATED, first runs spread over 2 s (the reload's spread).
            ({ app } = await buildApp({ ...config, engineEnabled: true }, { logStream }));
            seeded = await seed(app, sim);
            const engine = app.ctx.engine;
            if (!engine) throw new Error('engine not enabled');
            const t0 = performance.now();
            app.ctx.events.emit({ name: 'MONITOR_CREATED' });
            while (engine.stats.monitors < MONITORS && performance.now() - t0 < 120_000) await sleep(20);
            loadMs = performance.now() - t0;
        }
        const engine = app.ctx.engine;
        if (!engine) throw new Error('engine not enabled');
        console.log(
            `seeded ${MONITORS} monitors in ${(seeded.ms / 1000).toFixed(1)} s; engine loaded ${engine.stats.monitors} ` +
                `in ${(loadMs / 1000).toFixed(2)} s (${LOAD === 'restart' ? 'app start incl. migrations' : 'event → scheduled'})`
        );
        if (engine.stats.monitors !== MONITORS)
            throw new Error(`engine runs ${engine.stats.monitors} monitors, not ${MONITORS}`);

        // ---- run
        const runStart = performance.now();
        // Event-loop stalls with their time, to tie them to periodic work (the 30 s reload, the 1 s flush).
        const stalls: { t: number; ms: number }[] = [];
        let tickAt = performance.now();
        const ticker = setInterval(() => {
            const n = performance.now();
            if (n - tickAt > 250 + 20)
                stalls.push({ t: Math.round((n - runStart) / 100) / 10, ms: Math.round(n - tickAt - 20) });
            tickAt = n;
        }, 20);
        const egressAtStart = sum(await countEgress(sim));
        let egressAtWarm = 0;
        const eld = monitorEventLoopDelay({ resolution: 10 });
        eld.enable();
        const snap = (): Snapshot => {
            const st = engine.stats;
            return {
                at: performance.now(),
                started: st.scheduler.started,
                skipped: st.scheduler.skipped,
                rows: st.writer.rows,
                flushes: st.writer.flushes,
                failures: st.writer.failures,
                cpu: process.cpuUsage(),
                sim: procStats(sim?.child.pid),
                machine: machineCpu(),
            };
        };
        const s0 = snap();
        let last = s0;
        const lagsWarm: number[] = [];
        const lagsSteady: number[] = [];
        let peakAll = process.memoryUsage().rss;
        let peakSteady = 0;
        let simPeakRss = 0;
        let warm: { snap: Snapshot; report: PhaseReport } | null = null;
        const timeline: { t: number; checksPerSecond: number; rssMiB: number; simCpu: number | null }[] = [];
        while (performance.now() - runStart < RUN_MS) {
            await sleep(1000);
            const now = snap();
            const st = engine.stats.scheduler;
            const fresh = now.started - last.started;
            // Lags are pushed with each start; the newest `fresh` entries are this second's.
            const newLags = fresh > 0 ? st.lags.slice(-fresh) : [];
            const rss = process.memoryUsage().rss;
            peakAll = Math.max(peakAll, rss);
            simPeakRss = Math.max(simPeakRss, now.sim?.rssBytes ?? 0);
            if (warm) {
                for (const l of newLags) lagsSteady.push(l);
                peakSteady = Math.max(peakSteady, rss);
            } else {
                for (const l of newLags) lagsWarm.push(l);
            }
            const dt = (now.at - last.at) / 1000;
            const simCpu = now.sim && last.sim ? Math.round(((now.sim.cpuS - last.sim.cpuS) / dt) * 100) : null;
            timeline.push({
                t: Math.round((now.at - runStart) / 1000),
                checksPerSecond: Math.round(fresh / dt),
                rssMiB: Math.round(rss / MiB),
                simCpu,
            });
            const elapsed = now.at - runStart;
            if (!warm && elapsed >= WARMUP_MS) {
                warm = { snap: now, report: phase(s0, now, lagsWarm, eld, peakAll) };
                egressAtWarm = sum(await countEgress(sim)) - egressAtStart;
                eld.reset();
                peakSteady = rss;
            }
            if (Math.round(elapsed / 1000) % 15 === 0) {
                const l = [...(warm ? lagsSteady : lagsWarm)].sort((x, y) => x - y);
                console.log(
                    `  t=${Math.round(elapsed / 1000)}s checks/s=${Math.round(fresh / dt)} started=${now.started} ` +
                        `skipped=${now.skipped} lag p99=${l.length ? Math.round(percentile(l, 99)) : '–'}ms rss=${Math.round(rss / MiB)}MiB ` +
                        `sim cpu=${simCpu ?? '?'}% rows=${now.rows}`
                );
            }
            last = now;
        }
        const end = snap();
        clearInterval(ticker);
        const egress = await countEgress(sim);
        const egressTotal = sum(egress) - egressAtStart;
        if (!warm) throw new Error('run ended before the warm-up');
        const steady = phase(warm.snap, end, lagsSteady, eld, peakSteady);
        const whole = phase(s0, end, [...lagsWarm, ...lagsSteady], eld, peakAll);
        // The whole-run event-loop figures would need a second histogram; report the warm-up's and steady's.
        whole.eventLoopDelayMs = { p50: null, p99: null, max: null };
        eld.disable();

        // ---- outcome per type, after one more flush
        await sleep(1500);
        const byType = (await app.ctx.db.execute(sql`
            select type, count(*)::int as total,
                   count(*) filter (where not status)::int as status_false,
                   count(*) filter (where last_error is not null)::int as with_error,
                   count(*) filter (where last_check is null)::int as never_checked
            from monitors group by type order by type`)) as unknown as {
            rows: { type: string; total: number; status_false: number; with_error: number; never_checked: number }[];
        };
        const topErrors = (await app.ctx.db.execute(sql`
            select type, regexp_replace(last_error, '[0-9]+', 'N', 'g') as error, count(*)::int as n from monitors
            where last_error is not null group by 1, 2 order by 3 desc limit 8`)) as unknown as {
            rows: { type: string; error: string; n: number }[];
        };
        const warnLines = logs.filter((l) => /"level":(40|50|60)/.test(l));

        const target = {
            lagP99Ms: 1000,
            skipped: 0,
            rssMiB: 1024,
        };
        const pass = {
            lagP99: (steady.lagMs.p99 ?? Number.POSITIVE_INFINITY) <= target.lagP99Ms,
            noSkips: whole.skippedCycles === 0,
            rss: (whole.peakRssMiB ?? Number.POSITIVE_INFINITY) <= target.rssMiB,
        };
        const report = {
            when: new Date().toISOString(),
            options: {
                monitors: MONITORS,
                minutes: Number(argv.minutes),
                simNodes: SIM_NODES,
                blockTimeMs: BLOCK_TIME_MS,
                warmupSeconds: WARMUP_MS / 1000,
                load: LOAD,
                engineConcurrency: 256,
            },
            machine: {
                cores: CORES,
                loadAverageAtEnd: loadavg().map((l) => round(l, 2)),
                node: process.version,
            },
            seed: { seconds: round(seeded.ms / 1000, 1), byType: seeded.byType },
            engineLoadSeconds: round(loadMs / 1000, 2),
            warmup: warm.report,
            steady,
            whole,
            simPeakRssMiB: round(simPeakRss / MiB, 0),
            egress: {
                requestsPerSecondWarmup: round(egressAtWarm / warm.report.seconds, 0),
                requestsPerSecondSteady: round((egressTotal - egressAtWarm) / steady.seconds, 0),
                byEndpoint: Object.fromEntries([...egress.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12)),
            },
            eventLoopStallsOver250ms: stalls,
            outcomeByType: byType.rows,
            topErrors: topErrors.rows,
            warnOrErrorLogLines: warnLines.length,
            firstLogLines: warnLines.slice(0, 5).map((l) => l.slice(0, 300)),
            target,
            pass: { ...pass, all: pass.lagP99 && pass.noSkips && pass.rss },
            timeline,
        };
        printReport(report);
        mkdirSync(join(argv.out, '..'), { recursive: true });
        writeFileSync(argv.out, `${JSON.stringify(report, null, 2)}\n`);
        console.log(`\nwritten to ${argv.out}`);
    } finally {
        if (app) await app.close();
        await stopSim(sim);
        rmSync(dataDir, { recursive: true, force: true });
    }
}

function printReport(r: {
    warmup: PhaseReport;
    steady: PhaseReport;
    whole: PhaseReport;
    engineLoadSeconds: number | null;
    seed: { seconds: number | null };
    simPeakRssMiB: number | null;
    eventLoopStallsOver250ms: { t: number; ms: number }[];
    egress: {
        requestsPerSecondWarmup: number | null;
        requestsPerSecondSteady: number | null;
        byEndpoint: Record<string, number>;
    };
    outcomeByType: { type: string; total: number; status_false: number; with_error: number; never_checked: number }[];
    topErrors: { type: string; error: string; n: number }[];
    warnOrErrorLogLines: number;
    pass: { lagP99: boolean; noSkips: boolean; rss: boolean; all: boolean };
    machine: { loadAverageAtEnd: (number | null)[] };
}) {
    const cols: [string, PhaseReport][] = [
        ['warm-up', r.warmup],
        ['steady', r.steady],
        ['whole run', r.whole],
    ];
    const fmt = (v: number | null | undefined) => (v === null || v === undefined ? '–' : String(v));
    const row = (label: string, get: (p: PhaseReport) => number | null | undefined) =>
        `${label.padEnd(34)}${cols.map(([, p]) => fmt(get(p)).padStart(12)).join('')}`;
    console.log(`\n${''.padEnd(34)}${cols.map(([n]) => n.padStart(12)).join('')}`);
    console.log(row('seconds', (p) => p.seconds));
    console.log(row('checks started', (p) => p.checks));
    console.log(row('checks / s', (p) => p.checksPerSecond));
    console.log(row('lag p50 (ms)', (p) => p.lagMs.p50));
    console.log(row('lag p90 (ms)', (p) => p.lagMs.p90));
    console.log(row('lag p99 (ms)', (p) => p.lagMs.p99));
    console.log(row('lag max (ms)', (p) => p.lagMs.max));
    console.log(row('skipped cycles', (p) => p.skippedCycles));
    console.log(row('peak RSS (MiB)', (p) => p.peakRssMiB));
    console.log(row('CPU, % of one core', (p) => p.cpuPercentOfOneCore));
    console.log(row(`CPU, % of machine (${CORES} cores)`, (p) => p.cpuPercentOfMachine));
    console.log(row('event-loop delay p50 (ms)', (p) => p.eventLoopDelayMs.p50));
    console.log(row('event-loop delay p99 (ms)', (p) => p.eventLoopDelayMs.p99));
    console.log(row('event-loop delay max (ms)', (p) => p.eventLoopDelayMs.max));
    console.log(row('DB rows written / s', (p) => p.dbRowsPerSecond));
    console.log(row('DB flushes / s', (p) => p.dbFlushesPerSecond));
    console.log(row('DB flush failures', (p) => p.dbFlushFailures));
    console.log(row('sim child CPU, % of one core', (p) => p.sim?.cpuPercentOfOneCore));
    console.log(row('sim child RSS (MiB)', (p) => p.sim?.rssMiB));
    console.log(row('other load, % of machine', (p) => p.otherLoadPercentOfMachine));
    console.log(
        `\nseed ${fmt(r.seed.seconds)} s, engine load ${fmt(r.engineLoadSeconds)} s, sim peak RSS ${fmt(r.simPeakRssMiB)} MiB, ` +
            `load average at end ${r.machine.loadAverageAtEnd.join(' ')}`
    );
    const st = r.eventLoopStallsOver250ms;
    console.log(
        `event-loop stalls > 250 ms: ${st.length}${st.length ? ` (t s/ms: ${st.map((x) => `${x.t}/${x.ms}`).join(' ')})` : ''}`
    );
    const total = Object.values(r.egress.byEndpoint).reduce((a, b) => a + b, 0);
    console.log(
        `engine HTTP requests / s: warm-up ${fmt(r.egress.requestsPerSecondWarmup)}, steady ${fmt(r.egress.requestsPerSecondSteady)}; by endpoint (whole run):`
    );
    for (const [k, v] of Object.entries(r.egress.byEndpoint).slice(0, 8))
        console.log(`  ${String(v).padStart(8)}  ${((v / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
    console.log('\noutcome by type (at the end)   total  status=false  last_error  never checked');
    for (const t of r.outcomeByType) {
        console.log(
            `  ${t.type.padEnd(28)}${String(t.total).padStart(6)}${String(t.status_false).padStart(14)}` +
                `${String(t.with_error).padStart(12)}${String(t.never_checked).padStart(15)}`
        );
    }
    if (r.topErrors.length) {
        console.log('most frequent last_error (digits as N):');
        for (const e of r.topErrors) console.log(`  ${String(e.n).padStart(6)}  ${e.type}: ${e.error.slice(0, 160)}`);
    }
    console.log(`warn/error log lines: ${r.warnOrErrorLogLines}`);
    const mark = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
    console.log(
        `\ntarget: lag p99 ≤ 1 s (steady) ${mark(r.pass.lagP99)}, no skipped cycles ${mark(r.pass.noSkips)}, ` +
            `RSS ≤ 1 GiB ${mark(r.pass.rss)} → ${mark(r.pass.all)}`
    );
}

main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
});
