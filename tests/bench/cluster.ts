// Cluster benchmark (npm run bench:cluster): the cluster's cost and failover table. One `web` and three `worker` processes on PostgreSQL
// (DATABASE_URL, a throw-away database is made) and Redis (REDIS_URL, default database 9, flushed) check N urlCheck
// (with --type block, blockCheck) monitors every 60 s against the chain simulator; then one `all` process (no Redis)
// checks the same monitors, for the CPU comparison. Prints a markdown table: checks per second delivered, lateness, CPU ms per check (the console
// processes, Redis, and the PostgreSQL backends of the bench database), Redis memory per job scheduler, failover
// after a worker is killed with -9, and a projection for 100,000 monitors on 5 machines. Not a test: the figures
// depend on the machine, and on what else runs on it (the load average is printed with them).
//   npm run bench:cluster                                  (20,000 monitors)
//   BENCH_MONITORS=2000 npm run bench:cluster -- --seconds 120
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { QueueEvents } from 'bullmq';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { type Database, openDatabase } from '../../server/db/client';
import { redisConnection } from '../../server/db/redis';
import { companies, configurations, monitors, servers, services } from '../../server/db/schema';
import { CHAIN_QUEUE, CHECK_QUEUE } from '../../server/engine/queue-scheduler';
import { startChainSim } from '../../tools/chain-sim';
import { type ConsoleProcess, RedisProbe, startConsole, stopConsole } from '../cluster/processes';
import { throwAwayPostgres } from '../server/helpers';

const { values: argv } = parseArgs({
    options: {
        monitors: { type: 'string', default: process.env.BENCH_MONITORS ?? '20000' },
        /** The measured window of each profile. */
        seconds: { type: 'string', default: '180' },
        /** Seconds after the schedules exist before measuring: the first runs spread over an interval. */
        settle: { type: 'string', default: '75' },
        /** Seconds watched after the kill. */
        after: { type: 'string', default: '90' },
        workers: { type: 'string', default: '3' },
        /**
         * `url`: urlChecks of the node's RPC, spread over every worker; `block`: blockChecks, judged across monitors,
         * so all of them run in the one worker holding the cluster-wide duties.
         */
        type: { type: 'string', default: 'url' },
    },
});
const MONITORS = Number(argv.monitors);
const SECONDS = Number(argv.seconds);
const SETTLE = Number(argv.settle);
const AFTER = Number(argv.after);
const WORKERS = Number(argv.workers);
const INTERVAL_S = 60;
const POLL_MS = 5000;
const TICKS = 100; // USER_HZ: /proc/<pid>/stat counts CPU in 1/100 s on Linux.

const say = (s: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${s}\n`);

// ---- the machine's figures -------------------------------------------------------------------------------------

/** CPU ms (user + system) a process has used so far, or null once it is gone. */
function cpuMs(pid: number): number | null {
    try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
    } catch {
        return null;
    }
}

/** The PostgreSQL backends serving `dbName` (their process title names it), with their CPU ms so far. */
function backendsOf(dbName: string): Map<number, number> {
    const out = new Map<number, number>();
    for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        try {
            const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
            if (!title.startsWith('postgres:') || !title.includes(` ${dbName} `)) continue;
            const ms = cpuMs(Number(entry));
            if (ms !== null) out.set(Number(entry), ms);
        } catch {
            // Gone meanwhile, or another user's.
        }
    }
    return out;
}

/** CPU used between two snapshots of the backends: those that were there before, and all of any that came since. */
const backendsUsed = (before: Map<number, number>, after: Map<number, number>) =>
    [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);

/** A CPU meter over a set of processes: console processes by pid, Redis by INFO, PostgreSQL by its backends. */
class CpuMeter {
    private consoles = new Map<number, number>();
    private redisCpu = 0;
    private pg = new Map<number, number>();

    constructor(
        private readonly pids: () => number[],
        private readonly redis: Redis | null,
        private readonly dbName: string
    ) {}

    async start(): Promise<void> {
        this.consoles = new Map(this.pids().map((pid) => [pid, cpuMs(pid) ?? 0]));
        this.redisCpu = this.redis ? await redisCpuMs(this.redis) : 0;
        this.pg = backendsOf(this.dbName);
    }

    async stop(): Promise<{ consoles: number; byPid: Map<number, number>; redis: number; postgres: number }> {
        let consoles = 0;
        const byPid = new Map<number, number>();
        for (const [pid, before] of this.consoles) {
            const used = (cpuMs(pid) ?? before) - before;
            byPid.set(pid, used);
            consoles += used;
        }
        const redis = this.redis ? (await redisCpuMs(this.redis)) - this.redisCpu : 0;
        return { consoles, byPid, redis, postgres: backendsUsed(this.pg, backendsOf(this.dbName)) };
    }
}

async function redisCpuMs(redis: Redis): Promise<number> {
    const info = await redis.info('cpu');
    const read = (k: string) => Number(new RegExp(`${k}:([\\d.]+)`).exec(info)?.[1] ?? 0);
    return (read('used_cpu_user') + read('used_cpu_sys')) * 1000;
}

async function redisMemory(redis: Redis): Promise<number> {
    const info = await redis.info('memory');
    return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
}

const quantile = (sorted: number[], q: number) =>
    sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number);

// ---- what the processes did, as the database tells it ----------------------------------------------------------

/** Follows every monitor's last check (both profiles) and, in the cluster, the scheduled slot each check was for. */
class CheckWatch {
    private lastCheck = new Map<number, number>();
    private slot = new Map<number, number>();
    /** Checks seen since `reset`, and for the cluster each one's lateness (commit time − scheduled slot, ms). */
    checks = 0;
    lateness: { slot: number; ms: number; id: number }[] = [];
    private timer: NodeJS.Timeout | null = null;
    private polling: Promise<void> = Promise.resolve();

    constructor(private readonly database: Database) {}

    start(): void {
        this.timer = setInterval(() => {
            this.polling = this.poll();
        }, POLL_MS);
    }

    async stop(): Promise<void> {
        if (this.timer) clearInterval(this.timer);
        await this.polling;
        await this.poll();
    }

    reset(): void {
        this.checks = 0;
        this.lateness = [];
    }

    private async poll(): Promise<void> {
        const rows = (await this.database.db.execute(sql`
            select m.id, extract(epoch from m.last_check) * 1000 as checked,
                   (s.state->>'slot')::bigint as slot, extract(epoch from s.updated_at) * 1000 as saved
            from monitors m left join monitor_states s on s.monitor_id = m.id`)) as unknown as {
            rows: { id: number; checked: string | null; slot: string | null; saved: string | null }[];
        };
        for (const r of rows.rows) {
            const checked = r.checked === null ? null : Number(r.checked);
            if (checked !== null && this.lastCheck.get(r.id) !== checked) {
                if (this.lastCheck.has(r.id)) this.checks++;
                this.lastCheck.set(r.id, checked);
            }
            const slot = r.slot === null ? null : Number(r.slot);
            if (slot !== null && this.slot.get(r.id) !== slot) {
                if (this.slot.has(r.id)) this.lateness.push({ slot, ms: Number(r.saved) - slot, id: r.id });
                this.slot.set(r.id, slot);
            }
        }
    }
}

// ---- set-up ----------------------------------------------------------------------------------------------------

const postgres = await throwAwayPostgres(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const dbName = new URL(postgres.url).pathname.slice(1);
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const redis = new Redis(redisConnection(redisUrl));
await redis.flushdb();
const database = await openDatabase({ databaseUrl: postgres.url, dataDir: '' });
const sim = await startChainSim({ nodes: 2, blockTimeMs: 1000 });
const env = {
    DATABASE_URL: postgres.url,
    APP_SECRET: randomBytes(32).toString('hex'),
    ADMIN_PASSWORD: 'admin-password-1',
    DATA_DIR: `/tmp/nm-bench-cluster-${randomBytes(4).toString('hex')}`,
};

async function seed(): Promise<void> {
    const db = database.db;
    const [company] = await db
        .insert(companies)
        .values({ name: 'Bench', maxConcurrentChecks: 256, allowedNetworks: ['127.0.0.0/8'] })
        .returning({ id: companies.id });
    const [cfg] = await db
        .insert(configurations)
        .values({ companyId: company?.id ?? 0, name: 'Bench hub', chain: 'cosmoshub' })
        .returning({ id: configurations.id });
    // Two nodes, half of the monitors on each: the simulator is not the bottleneck.
    for (const [n, node] of sim.nodes.entries()) {
        const [srv] = await db
            .insert(servers)
            .values({ configurationId: cfg?.id ?? 0, name: `sim-node-${n}`, address: 'http://127.0.0.1' })
            .returning({ id: servers.id });
        await db.insert(services).values({ serverId: srv?.id ?? 0, name: 'rpc', type: 'rpc', address: node.rpcUrl });
        const share = Math.floor(MONITORS / sim.nodes.length) + (n === 0 ? MONITORS % sim.nodes.length : 0);
        for (let from = 0; from < share; from += 1000) {
            const rows = Array.from({ length: Math.min(1000, share - from) }, (_, k) => ({
                configurationId: cfg?.id ?? 0,
                serverId: srv?.id ?? 0,
                name: `${argv.type} ${n}-${from + k}`,
                ...(argv.type === 'block'
                    ? {
                          type: 'blockCheck' as const,
                          configurationObject: JSON.stringify({ sleep_duration_seconds: INTERVAL_S }),
                      }
                    : {
                          type: 'urlCheck' as const,
                          configurationObject: JSON.stringify({ address: `${node.rpcUrl}/status` }),
                      }),
            }));
            await db.insert(monitors).values(rows);
        }
    }
}

await seed();
say(
    `${MONITORS} monitors at ${INTERVAL_S} s; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}`
);
const watch = new CheckWatch(database);
const pause = (s: number) => new Promise((r) => setTimeout(r, s * 1000));

// ---- the cluster: web + workers ------------------------------------------------------------------------------------

const probe = new RedisProbe(redisUrl);
const memoryBefore = await redisMemory(redis);
const clusterEnv = { ...env, REDIS_URL: redisUrl };
const web = await startConsole('web', clusterEnv, 300_000);
const workers = await Promise.all(Array.from({ length: WORKERS }, () => startConsole('worker', clusterEnv, 300_000)));
const started = Date.now();
while ((await probe.count()) < MONITORS) {
    if (Date.now() - started > 600_000) throw new Error(`only ${await probe.count()} schedulers after 10 min`);
    await pause(1);
}
say(`${MONITORS} job schedulers in ${((Date.now() - started) / 1000).toFixed(1)} s; settling ${SETTLE} s`);
watch.start();
await pause(SETTLE);
// BullMQ's event streams are capped (about 10,000 entries each) whatever the number of schedulers: counted apart.
// blockChecks are judged across monitors, so they are on CHAIN_QUEUE and run in the worker holding the duties.
let eventStream = 0;
for (const queue of [CHECK_QUEUE, CHAIN_QUEUE])
    eventStream += Number((await redis.call('MEMORY', 'USAGE', `bull:${queue}:events`, 'SAMPLES', '0')) ?? 0);
const memoryPerScheduler = ((await redisMemory(redis)) - memoryBefore - eventStream) / MONITORS;
const checkedOnce = async () =>
    (
        (await database.db.execute(
            sql`select count(*)::int as n from monitors where last_check is not null`
        )) as unknown as { rows: { n: number }[] }
    ).rows[0]?.n ?? 0;
say(`${await checkedOnce()} of ${MONITORS} monitors checked so far`);

const clusterProcesses = [web, ...workers];
const clusterMeter = new CpuMeter(() => clusterProcesses.map((p) => p.child.pid ?? 0), redis, dbName);
watch.reset();
await clusterMeter.start();
const windowStart = Date.now();
await pause(SECONDS);
const loadDuring = loadavg();
const clusterCpu = await clusterMeter.stop();
const clusterSeconds = (Date.now() - windowStart) / 1000;
const clusterChecks = watch.checks;
const lateness = watch.lateness.filter((l) => l.slot >= windowStart).map((l) => l.ms);
lateness.sort((a, b) => a - b);
const loadAfterCluster = loadavg();
say(`cluster: ${clusterChecks} checks in ${clusterSeconds.toFixed(0)} s`);
if (clusterChecks === 0)
    for (const p of clusterProcesses) say(`${p.role} ${p.child.pid}: ${p.output.join('').slice(-2000)}`);

// Failover: one worker killed with -9 while the others carry on.
const events = [CHECK_QUEUE, CHAIN_QUEUE].map((q) => new QueueEvents(q, { connection: redisConnection(redisUrl) }));
await Promise.all(events.map((e) => e.waitUntilReady()));
let lastStalledAt = 0;
let stalled = 0;
for (const e of events)
    e.on('failed', ({ failedReason }) => {
        if (/stalled/i.test(failedReason)) {
            stalled++;
            lastStalledAt = Date.now();
        }
    });
watch.reset();
const victim = workers[0] as ConsoleProcess;
const killedAt = Date.now();
await stopConsole(victim, 'SIGKILL');
say(`worker ${victim.child.pid} killed; watching ${AFTER} s`);
await pause(AFTER);
const afterKill = watch.lateness.filter((l) => l.slot >= killedAt).map((l) => l.ms);
const failover = {
    sweptSeconds: stalled ? (lastStalledAt - killedAt) / 1000 : 0,
    stalled,
    maxLateAfterKill: afterKill.length ? Math.max(...afterKill) / 1000 : Number.NaN,
};
// A monitor whose check the dead worker held is checked again at its next slot (the job is not run twice).
await Promise.all(events.map((e) => e.close()));
await watch.stop();
await Promise.all(clusterProcesses.map((p) => stopConsole(p)));
await probe.close();

// ---- one process at the same load --------------------------------------------------------------------------------

const single = await startConsole('all', { ...env, REDIS_URL: '' }, 300_000);
const singleWatch = new CheckWatch(database);
singleWatch.start();
await pause(SETTLE);
const singleMeter = new CpuMeter(() => [single.child.pid ?? 0], null, dbName);
singleWatch.reset();
await singleMeter.start();
const singleStart = Date.now();
await pause(SECONDS);
const singleCpu = await singleMeter.stop();
const singleSeconds = (Date.now() - singleStart) / 1000;
const singleChecks = singleWatch.checks;
await singleWatch.stop();
await stopConsole(single);
say(`single: ${singleChecks} checks in ${singleSeconds.toFixed(0)} s`);

// ---- the table ---------------------------------------------------------------------------------------------------

const per = (ms: number, checks: number) => (checks ? ms / checks : Number.NaN);
const cluster = {
    consoles: per(clusterCpu.consoles, clusterChecks),
    redis: per(clusterCpu.redis, clusterChecks),
    postgres: per(clusterCpu.postgres, clusterChecks),
};
const one = { consoles: per(singleCpu.consoles, singleChecks), postgres: per(singleCpu.postgres, singleChecks) };
const clusterTotal = cluster.consoles + cluster.redis + cluster.postgres;
const singleTotal = one.consoles + one.postgres;
const f = (n: number, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(', ');

// 100,000 monitors at 60 s on 5 machines of 2 cores each: 1,667 checks/s, priced at the measured CPU per check.
const PROJECTED = 100_000;
const rate = PROJECTED / INTERVAL_S;
const coresFor = (msPerCheck: number) => (rate * msPerCheck) / 1000;
const projection = {
    workers: coresFor(cluster.consoles),
    redis: coresFor(cluster.redis),
    postgres: coresFor(cluster.postgres),
    redisMemory: (PROJECTED * memoryPerScheduler) / 1024 / 1024,
};

const rows: [string, string, string][] = [
    ['Monitors × interval', `${MONITORS} × ${INTERVAL_S} s (web + ${WORKERS} workers)`, ''],
    [
        'Checks per second delivered',
        `${f(clusterChecks / clusterSeconds, 1)} (cluster), ${f(singleChecks / singleSeconds, 1)} (one process)`,
        `${f(MONITORS / INTERVAL_S, 1)} due`,
    ],
    [
        'Lateness p50 / p99 / max (commit − scheduled slot)',
        `${f(quantile(lateness, 0.5) / 1000)} / ${f(quantile(lateness, 0.99) / 1000)} / ${f((lateness.at(-1) ?? Number.NaN) / 1000)} s`,
        'p99 ≤ 2 s',
    ],
    [
        'CPU ms per check: console processes',
        `${f(cluster.consoles)} (cluster) vs ${f(one.consoles)} (one process) = ${f(cluster.consoles / one.consoles)}×`,
        '≤ 1.5×',
    ],
    [
        'CPU ms per check by cluster process',
        clusterProcesses
            .map((p) => `${p.role} ${f(per(clusterCpu.byPid.get(p.child.pid ?? 0) ?? 0, clusterChecks))}`)
            .join(', '),
        '',
    ],
    [
        'CPU ms per check: Redis',
        `${f(cluster.redis)} (INFO cpu of the Redis at REDIS_URL: its other users included)`,
        '',
    ],
    [
        'CPU ms per check: PostgreSQL backends',
        `${f(cluster.postgres)} (cluster) vs ${f(one.postgres)} (one process)`,
        '',
    ],
    ['CPU ms per check: all of it', `${f(clusterTotal)} vs ${f(singleTotal)} = ${f(clusterTotal / singleTotal)}×`, ''],
    [
        'Redis memory per job scheduler',
        `${f(memoryPerScheduler / 1024)} KiB (INFO used_memory, with its next job), besides ${f(eventStream / 1024 / 1024)} MiB of capped event stream`,
        '',
    ],
    [
        'Failover after kill -9 of a worker',
        `${failover.stalled ? `${f(failover.sweptSeconds, 1)} s until the ${failover.stalled} check(s) it held were swept (each monitor checked again at its next slot)` : 'it held no check when killed'}; slots due after the kill: at most ${f(failover.maxLateAfterKill)} s late`,
        '≤ 20 s',
    ],
    [
        `Projection: ${PROJECTED.toLocaleString('en')} monitors at 60 s on 5 machines`,
        `${f(rate, 0)} checks/s: ${f(projection.workers, 1)} cores of workers (${f(projection.workers / 5, 2)} per machine), ${f(projection.redis, 2)} of Redis, ${f(projection.postgres, 1)} of PostgreSQL; Redis ${f(projection.redisMemory, 0)} MiB`,
        '',
    ],
    ['Load average during / after the cluster run', `${load(loadDuring)} / ${load(loadAfterCluster)} (2 cores)`, ''],
];
console.log('\n| Figure | Measured | Goal |\n|---|---|---|');
for (const [a, b, c] of rows) console.log(`| ${a} | ${b} | ${c} |`);

await sim.close();
redis.disconnect();
await database.close();
await postgres.drop();
process.exit(0);
