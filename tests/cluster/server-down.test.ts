import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { deriveKey } from '../../server/auth/keys';
import { encryptSecret } from '../../server/auth/secrets';
import { type Database, openDatabase } from '../../server/db/client';
import {
    companies,
    configurationChannels,
    configurations,
    monitors,
    notificationChannels,
    outbox,
    servers,
    services,
} from '../../server/db/schema';
import { type ChainSim, startChainSim } from '../../tools/chain-sim';
import { type FakeTelegram, startFakeTelegram } from '../support/fake-telegram';
import { waitFor } from '../server/seed';
import { type ConsoleProcess, clusterDatabase, REDIS_URL, RedisProbe, startConsole, stopConsole } from './processes';

/**
 * A whole server down with three `worker` processes: its three disk monitors (which every worker takes) fail within
 * one interval, their checks and alerts saved by whichever worker ran them, and the chat gets one SERVER DOWN naming
 * the server and the three, then one SERVER UP: the outbox decides in PostgreSQL, not in one worker's memory.
 */
const dbName = `nm_serverdown_${randomBytes(6).toString('hex')}`;

let database: Database;
let dropDatabase: (() => Promise<void>) | undefined;
let redis: RedisProbe;
let sim: ChainSim;
let telegram: FakeTelegram;
const workers: ConsoleProcess[] = [];
const monitorIds: number[] = [];

beforeAll(async () => {
    const created = await clusterDatabase(dbName);
    dropDatabase = created.drop;
    database = await openDatabase({ databaseUrl: created.url, dataDir: '' });
    redis = new RedisProbe(REDIS_URL);
    await redis.flush();
    sim = await startChainSim({ blockTimeMs: 500, nodes: 1 });
    telegram = await startFakeTelegram();
    const db = database.db;
    const [company] = await db
        .insert(companies)
        .values({ name: 'Server down', allowedNetworks: ['127.0.0.0/8'] })
        .returning();
    const [cfg] = await db
        .insert(configurations)
        .values({ companyId: company?.id ?? 0, name: 'Sim mainnet', chain: 'cosmoshub' })
        .returning();
    const appSecret = randomBytes(32).toString('hex');
    const token = encryptSecret(deriveKey(appSecret, 'secrets-at-rest'), '123456:SERVERDOWN-token');
    const [channel] = await db
        .insert(notificationChannels)
        .values({
            companyId: company?.id ?? 0,
            name: 'Ops chat',
            type: 'telegram',
            configurationObject: JSON.stringify({ bot_token: token, chat_id: '-5656' }),
        })
        .returning();
    await db
        .insert(configurationChannels)
        .values({ configurationId: cfg?.id ?? 0, notificationChannelId: channel?.id ?? 0 });
    const [srv] = await db
        .insert(servers)
        .values({ configurationId: cfg?.id ?? 0, name: 'validator-1', address: 'http://127.0.0.1' })
        .returning();
    await db.insert(services).values({
        serverId: srv?.id ?? 0,
        name: 'node_exporter',
        type: 'node_exporter',
        address: sim.nodes[0]?.nodeExporterUrl ?? '',
    });
    const rows = await db
        .insert(monitors)
        .values(
            [1, 2, 3].map((i) => ({
                configurationId: cfg?.id ?? 0,
                serverId: srv?.id ?? 0,
                name: `Disk ${i}`,
                type: 'nodeExporterDiskSpace' as const,
                configurationObject: JSON.stringify({ threshold: 99, check_interval_seconds: 5 }),
            }))
        )
        .returning({ id: monitors.id });
    monitorIds.push(...rows.map((r) => r.id));
    const env = {
        DATABASE_URL: created.url,
        REDIS_URL,
        APP_SECRET: appSecret,
        ADMIN_PASSWORD: 'admin-password-1',
        DATA_DIR: `/tmp/nm-cluster-${dbName}`,
        TELEGRAM_API_URL: telegram.url,
    };
    workers.push(...(await Promise.all([1, 2, 3].map(() => startConsole('worker', env)))));
}, 180_000);

afterAll(async () => {
    await Promise.all(workers.map((p) => stopConsole(p, 'SIGKILL')));
    await redis?.flush();
    await redis?.close();
    await database?.close();
    await sim?.close();
    await telegram?.close();
    await dropDatabase?.();
});

const healthy = async () =>
    (await database.db.select().from(monitors).where(inArray(monitors.id, monitorIds))).every(
        (m) => m.lastCheck !== null && m.status && m.lastError === null
    );

it('three workers, the server down: one SERVER DOWN for its three monitors, then one SERVER UP', async () => {
    await waitFor('a healthy check of every monitor', healthy, 60_000);
    const downAt = new Date();
    sim.control.setFault(0, 'all', { status: 503 });

    const down = () => telegram.sent.filter((m) => m.text.includes('SERVER DOWN'));
    await waitFor('the SERVER DOWN message', () => down().length > 0, 90_000);
    // Every monitor is checked every 5 s: a second message would be out by now.
    await new Promise((r) => setTimeout(r, 10_000));
    expect(telegram.sent.map((m) => m.text.split('\n', 1)[0])).toEqual([
        expect.stringMatching(/^🔴 <b>SERVER DOWN<\/b> validator-1 — 3 monitors failing: Disk \d, Disk \d, Disk \d$/),
    ]);
    for (const name of ['Disk 1', 'Disk 2', 'Disk 3'])
        expect(down()[0]?.text).toContain(`${name} (nodeExporterDiskSpace)`);
    // Each monitor's alert is recorded and was delivered by that one message.
    const alerts = await database.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.kind, 'alert'), inArray(outbox.monitorId, monitorIds)));
    expect(alerts.map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
    expect(new Set(alerts.map((r) => r.groupKey)).size).toBe(1);
    expect(alerts.every((r) => r.createdAt >= downAt)).toBe(true);

    sim.control.clearFaults(0);
    const up = () => telegram.sent.filter((m) => m.text.includes('SERVER UP'));
    await waitFor('the SERVER UP message', () => up().length > 0, 90_000);
    await new Promise((r) => setTimeout(r, 10_000));
    expect(telegram.sent.map((m) => m.text.split('\n', 1)[0])).toEqual([
        expect.stringContaining('SERVER DOWN'),
        expect.stringMatching(/^✅ <b>SERVER UP<\/b> validator-1 — 3 monitors recovered: Disk \d, Disk \d, Disk \d$/),
    ]);
}, 240_000);
