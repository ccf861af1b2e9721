import { eq, inArray } from 'drizzle-orm';
import { monitors } from '../../server/db/schema';
import { waitFor } from '../server/seed';
import { type ClusterEnv, clusterEnv } from './cluster-env';
import type { ConsoleProcess } from './processes';
import { blockCheck, blockCheckSettings, rpcService, seedServer, seedTenant } from './seed';

/**
 * A Redis restart (AOF on) loses no job scheduler. One `web` and two `worker` consoles on a Redis of this
 * file's own (append-only file, fsynced on every write), checking blockCheck monitors every 2 to 4 s. Redis is
 * killed with -9, left down a while and started again on the same file: the processes live through the outage
 * (a failing dependency degrades them, never stops them), every enabled monitor still has exactly one job
 * scheduler with its interval, and checks resume.
 */
const ENABLED = 6;
let cluster: ClusterEnv;
let web: ConsoleProcess;
let workers: ConsoleProcess[] = [];
const enabledIds: number[] = [];
const intervals = new Map<string, number>();

const lastChecks = async () =>
    cluster.db
        .select({ id: monitors.id, lastCheck: monitors.lastCheck })
        .from(monitors)
        .where(inArray(monitors.id, enabledIds));

/** Exactly the wanted schedulers: one per enabled monitor, with its interval, and nothing else. */
const exactSchedulers = async () => {
    const have = await cluster.redis.schedulers();
    return have.size === intervals.size && [...intervals].every(([id, every]) => have.get(id) === every);
};

const alive = (p: ConsoleProcess) => p.child.exitCode === null && p.child.signalCode === null;

beforeAll(async () => {
    cluster = await clusterEnv({ name: 'redis', sim: { blockTimeMs: 500, nodes: 1 }, ownRedis: true });
    const { configurationId } = await seedTenant(cluster, 'Restart');
    const serverId = await seedServer(cluster, configurationId, rpcService(cluster.sim.nodes[0]?.rpcUrl));
    const rows = await cluster.db
        .insert(monitors)
        .values(
            Array.from({ length: ENABLED + 2 }, (_, i) => ({
                ...blockCheck({ configurationId, serverId }, `restart-${i + 1}`, blockCheckSettings(2 + (i % 3))),
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
    [web, ...workers] = await Promise.all([cluster.start('web'), cluster.start('worker'), cluster.start('worker')]);
}, 180_000);

afterAll(() => cluster?.stop());

it('loses no job scheduler to a Redis crash and restart (AOF on); the processes live through it and checks resume', async () => {
    await waitFor('the schedulers', exactSchedulers, 30_000);
    await waitFor(
        'a check of every monitor',
        async () => (await lastChecks()).every((r) => r.lastCheck !== null),
        30_000
    );

    await cluster.ownRedis.crash();
    // Down for longer than the engine's checks take to find it gone, and than a worker's heartbeat.
    await new Promise((r) => setTimeout(r, 6000));
    expect([web, ...workers].every(alive)).toBe(true);
    await cluster.ownRedis.up();
    const restartedAt = new Date();

    // Straight from the append-only file, before any worker had time to reconcile: nothing lost, nothing doubled.
    expect(await exactSchedulers()).toBe(true);
    expect(await cluster.redis.count()).toBe(ENABLED);
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
    const disabled = await cluster.db.select({ id: monitors.id }).from(monitors).where(eq(monitors.isEnabled, false));
    const have = await cluster.redis.schedulers();
    for (const { id } of disabled) expect(have.has(String(id))).toBe(false);
}, 120_000);
