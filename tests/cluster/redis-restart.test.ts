import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { type Database, openDatabase } from '../../server/db/client';
import { companies, configurations, monitors, servers, services } from '../../server/db/schema';
import { type ChainSim, startChainSim } from '../../tools/chain-sim';
import { waitFor } from '../server/seed';
import { OwnRedis } from './own-redis';
import { type ConsoleProcess, RedisProbe, startConsole, stopConsole } from './processes';

/**
 * A Redis restart (AOF on) loses no job scheduler. One `web` and two `worker` consoles on a Redis of this
 * file's own (append-only file, fsynced on every write), checking blockCheck monitors every 2 to 4 s. Redis is
 * killed with -9, left down a while and started again on the same file: the processes live through the outage
 * (a failing dependency degrades them, never stops them), every enabled monitor still has exactly one job
 * scheduler with its interval, and checks resume.
 */
const PG_BASE = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const dbName = `nm_redis_${randomBytes(6).toString('hex')}`;
const ENABLED = 6;
let database: Database;
let redis: OwnRedis;
let probe: RedisProbe;
let sim: ChainSim;
let web: ConsoleProcess;
let workers: ConsoleProcess[] = [];
const enabledIds: number[] = [];
const intervals = new Map<string, number>();

async function admin(query: string): Promise<void> {
    const c = new pg.Client({ connectionString: PG_BASE });
    await c.connect();
    await c.query(query);
    await c.end();
}

const lastChecks = async () =>
    database.db
        .select({ id: monitors.id, lastCheck: monitors.lastCheck })
        .from(monitors)
        .where(inArray(monitors.id, enabledIds));

/** Exactly the wanted schedulers: one per enabled monitor, with its interval, and nothing else. */
const exactSchedulers = async () => {
    const have = await probe.schedulers();
    return have.size === intervals.size && [...intervals].every(([id, every]) => have.get(id) === every);
};

const alive = (p: ConsoleProcess) => p.child.exitCode === null && p.child.signalCode === null;

beforeAll(async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    const url = new URL(PG_BASE);
    url.pathname = `/${dbName}`;
    database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
    redis = await OwnRedis.start();
    probe = new RedisProbe(redis.url);
    sim = await startChainSim({ blockTimeMs: 500, nodes: 1 });
    const [company] = await database.db
        .insert(companies)
        .values({ name: 'Restart', allowedNetworks: ['127.0.0.0/8'] })
        .returning();
    const [cfg] = await database.db
        .insert(configurations)
        .values({ companyId: company?.id ?? 0, name: 'Sim mainnet', chain: 'cosmoshub' })
        .returning();
    const [srv] = await database.db
        .insert(servers)
        .values({ configurationId: cfg?.id ?? 0, name: 'validator-1', address: 'http://127.0.0.1' })
        .returning();
    await database.db
        .insert(services)
        .values({ serverId: srv?.id ?? 0, name: 'rpc', type: 'rpc', address: sim.nodes[0]?.rpcUrl ?? '' });
    const rows = await database.db
        .insert(monitors)
        .values(
            Array.from({ length: ENABLED + 2 }, (_, i) => ({
                configurationId: cfg?.id ?? 0,
                serverId: srv?.id ?? 0,
                name: `restart-${i + 1}`,
                type: 'blockCheck' as const,
                configurationObject: JSON.stringify({
                    miss_tolerance: 3,
                    miss_tolerance_period_seconds: 30,
                    sleep_duration_seconds: 2 + (i % 3),
                    alert_sleep_duration_minutes: 60,
                }),
                isEnabled: i < ENABLED,
            }))
        )
        .returning({ id: monitors.id, isEnabled: monitors.isEnabled, settings: monitors.configurationObject });
    for (const r of rows.filter((x) => x.isEnabled)) {
        enabledIds.push(r.id);
        intervals.set(
            String(r.id),
            (JSON.parse(r.settings) as { sleep_duration_seconds: number }).sleep_duration_seconds * 1000
        );
    }
    const env = {
        DATABASE_URL: url.toString(),
        REDIS_URL: redis.url,
        APP_SECRET: randomBytes(32).toString('hex'),
        ADMIN_PASSWORD: 'admin-password-1',
        DATA_DIR: `/tmp/nm-cluster-${dbName}`,
    };
    [web, ...workers] = await Promise.all([
        startConsole('web', env),
        startConsole('worker', env),
        startConsole('worker', env),
    ]);
}, 180_000);

afterAll(async () => {
    await Promise.all([web, ...workers].filter(Boolean).map((p) => stopConsole(p, 'SIGKILL')));
    await probe?.close();
    await redis?.close();
    await database?.close();
    await sim?.close();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
});

it('loses no job scheduler to a Redis crash and restart (AOF on); the processes live through it and checks resume', async () => {
    await waitFor('the schedulers', exactSchedulers, 30_000);
    await waitFor(
        'a check of every monitor',
        async () => (await lastChecks()).every((r) => r.lastCheck !== null),
        30_000
    );

    await redis.crash();
    // Down for longer than the engine's checks take to find it gone, and than a worker's heartbeat.
    await new Promise((r) => setTimeout(r, 6000));
    expect([web, ...workers].every(alive)).toBe(true);
    await redis.up();
    const restartedAt = new Date();

    // Straight from the append-only file, before any worker had time to reconcile: nothing lost, nothing doubled.
    expect(await exactSchedulers()).toBe(true);
    expect(await probe.count()).toBe(ENABLED);
    await waitFor(
        'a check of every monitor after the restart',
        async () => (await lastChecks()).every((r) => r.lastCheck && new Date(r.lastCheck) > restartedAt),
        30_000
    );
    await waitFor('both workers on /api/health again', async () => {
        const res = await fetch(`${web.url}/api/health`);
        const body = (await res.json()) as { workers?: { pid: number }[] };
        return res.status === 200 && body.workers?.length === 2;
    });
    expect([web, ...workers].every(alive)).toBe(true);
    expect(await exactSchedulers()).toBe(true);
    // Disabled monitors stay without one.
    const disabled = await database.db.select({ id: monitors.id }).from(monitors).where(eq(monitors.isEnabled, false));
    const have = await probe.schedulers();
    for (const { id } of disabled) expect(have.has(String(id))).toBe(false);
}, 120_000);
