import { and, eq, inArray } from 'drizzle-orm';
import { monitors, outbox } from '../../server/db/schema';
import { waitFor } from '../server/seed';
import { type ClusterEnv, clusterEnv } from './cluster-env';
import { seedServer, seedTenant } from './seed';

/**
 * A whole server down with three `worker` processes: its three disk monitors (which every worker takes) fail within
 * one interval, their checks and alerts saved by whichever worker ran them, and the chat gets one SERVER DOWN naming
 * the server and the three, then one SERVER UP: the outbox decides in PostgreSQL, not in one worker's memory.
 */

let cluster: ClusterEnv;
const monitorIds: number[] = [];

beforeAll(async () => {
    cluster = await clusterEnv({ name: 'serverdown', sim: { blockTimeMs: 500, nodes: 1 } });
    const channel = { token: '123456:SERVERDOWN-token', chat: '-5656' };
    const { configurationId } = await seedTenant(cluster, 'Server down', channel);
    const serverId = await seedServer(cluster, configurationId, {
        name: 'node_exporter',
        type: 'node_exporter',
        address: cluster.sim.nodes[0]?.nodeExporterUrl ?? '',
    });
    const rows = await cluster.db
        .insert(monitors)
        .values(
            [1, 2, 3].map((i) => ({
                configurationId,
                serverId,
                name: `Disk ${i}`,
                type: 'nodeExporterDiskSpace' as const,
                configurationObject: JSON.stringify({ threshold: 99, check_interval_seconds: 5 }),
            }))
        )
        .returning({ id: monitors.id });
    monitorIds.push(...rows.map((r) => r.id));
    await Promise.all([1, 2, 3].map(() => cluster.start('worker')));
}, 180_000);

afterAll(() => cluster?.stop());

const healthy = async () =>
    (await cluster.db.select().from(monitors).where(inArray(monitors.id, monitorIds))).every(
        (m) => m.lastCheck !== null && m.status && m.lastError === null
    );

it('three workers, the server down: one SERVER DOWN for its three monitors, then one SERVER UP', async () => {
    await waitFor('a healthy check of every monitor', healthy, 60_000);
    const downAt = new Date();
    cluster.sim.control.setFault(0, 'all', { status: 503 });

    const down = () => cluster.telegram.sent.filter((m) => m.text.includes('SERVER DOWN'));
    await waitFor('the SERVER DOWN message', () => down().length > 0, 90_000);
    // Every monitor is checked every 5 s: a second message would be out by now.
    await new Promise((r) => setTimeout(r, 10_000));
    expect(cluster.telegram.sent.map((m) => m.text.split('\n', 1)[0])).toEqual([
        expect.stringMatching(/^🔴 <b>SERVER DOWN<\/b> validator-1 — 3 monitors failing: Disk \d, Disk \d, Disk \d$/),
    ]);
    for (const name of ['Disk 1', 'Disk 2', 'Disk 3'])
        expect(down()[0]?.text).toContain(`${name} (nodeExporterDiskSpace)`);
    // Each monitor's alert is recorded and was delivered by that one message.
    const alerts = await cluster.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.kind, 'alert'), inArray(outbox.monitorId, monitorIds)));
    expect(alerts.map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
    expect(new Set(alerts.map((r) => r.groupKey)).size).toBe(1);
    expect(alerts.every((r) => r.createdAt >= downAt)).toBe(true);

    cluster.sim.control.clearFaults(0);
    const up = () => cluster.telegram.sent.filter((m) => m.text.includes('SERVER UP'));
    await waitFor('the SERVER UP message', () => up().length > 0, 90_000);
    await new Promise((r) => setTimeout(r, 10_000));
    expect(cluster.telegram.sent.map((m) => m.text.split('\n', 1)[0])).toEqual([
        expect.stringContaining('SERVER DOWN'),
        expect.stringMatching(/^✅ <b>SERVER UP<\/b> validator-1 — 3 monitors recovered: Disk \d, Disk \d, Disk \d$/),
    ]);
}, 240_000);
