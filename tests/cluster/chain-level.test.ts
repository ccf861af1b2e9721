import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
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
 * The checks judged together across monitors (chain-halt pooling, upgrade holds, duty groups) with three real
 * `worker` processes: they run in the one worker that holds the cluster-wide duties' lock, so a halted chain is
 * judged as in one process. Three nodes of one chain, two blockChecks on each, every 2 s. The cases run in order.
 */
const dbName = `nm_chainlevel_${randomBytes(6).toString('hex')}`;
/** The lock's number in server/assembly/background.ts, as pg_locks shows it (objid; classid 0). */
const LOCK_OBJID = 0x4e4d5349;

let database: Database;
let dropDatabase: (() => Promise<void>) | undefined;
let redis: RedisProbe;
let sim: ChainSim;
let telegram: FakeTelegram;
let env: Record<string, string>;
const workers: ConsoleProcess[] = [];
const monitorIds: number[] = [];

async function holderPid(): Promise<number | null> {
    const result = (await database.db.execute(sql`
        select a.application_name as name from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where l.locktype = 'advisory' and l.granted and l.objid = ${LOCK_OBJID} and l.database = (
            select oid from pg_database where datname = current_database())`)) as unknown as {
        rows: { name: string }[];
    };
    const pid = /pid=(\d+)/.exec(result.rows[0]?.name ?? '')?.[1];
    return pid ? Number(pid) : null;
}

/** A blockCheck's state change is logged (at warn while failing) by the process that ran the check. */
const ranChecks = (w: ConsoleProcess) => w.output.some((chunk) => /\(blockCheck\)/.test(chunk));

const lastChecks = async () =>
    database.db
        .select({ id: monitors.id, lastCheck: monitors.lastCheck })
        .from(monitors)
        .where(inArray(monitors.id, monitorIds));

beforeAll(async () => {
    const created = await clusterDatabase(dbName);
    dropDatabase = created.drop;
    database = await openDatabase({ databaseUrl: created.url, dataDir: '' });
    redis = new RedisProbe(REDIS_URL);
    await redis.flush();
    sim = await startChainSim({ blockTimeMs: 500, nodes: 3 });
    telegram = await startFakeTelegram();
    const [company] = await database.db
        .insert(companies)
        .values({ name: 'Chain level', allowedNetworks: ['127.0.0.0/8'] })
        .returning();
    const companyId = company?.id ?? 0;
    const [cfg] = await database.db
        .insert(configurations)
        .values({ companyId, name: 'Sim mainnet', chain: 'cosmoshub' })
        .returning();
    const configurationId = cfg?.id ?? 0;
    const appSecret = randomBytes(32).toString('hex');
    const token = encryptSecret(deriveKey(appSecret, 'secrets-at-rest'), '123456:CHAINLEVEL-token');
    const [channel] = await database.db
        .insert(notificationChannels)
        .values({
            companyId,
            name: 'Ops chat',
            type: 'telegram',
            configurationObject: JSON.stringify({ bot_token: token, chat_id: '-4545' }),
        })
        .returning();
    await database.db
        .insert(configurationChannels)
        .values({ configurationId, notificationChannelId: channel?.id ?? 0 });
    const settings = JSON.stringify({
        miss_tolerance: 2,
        miss_tolerance_period_seconds: 60,
        sleep_duration_seconds: 2,
        alert_sleep_duration_minutes: 60,
    });
    for (const [i, node] of sim.nodes.entries()) {
        const [srv] = await database.db
            .insert(servers)
            .values({ configurationId, name: `validator-${i + 1}`, address: 'http://127.0.0.1' })
            .returning();
        await database.db
            .insert(services)
            .values({ serverId: srv?.id ?? 0, name: 'rpc', type: 'rpc', address: node.rpcUrl });
        const rows = await database.db
            .insert(monitors)
            .values(
                [1, 2].map((j) => ({
                    configurationId,
                    serverId: srv?.id ?? 0,
                    name: `height-${i + 1}-${j}`,
                    type: 'blockCheck' as const,
                    configurationObject: settings,
                }))
            )
            .returning({ id: monitors.id });
        monitorIds.push(...rows.map((r) => r.id));
    }
    env = {
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

describe('the checks judged across monitors, with three workers', () => {
    it('are scheduled on the chain queue only, which the lock holder alone consumes', async () => {
        const ids = monitorIds.map(String).sort();
        await waitFor('the chain schedulers', async () => {
            const chain = await redis.schedulers('chain');
            return ids.every((id) => chain.has(id)) && chain.size === ids.length;
        });
        expect([...(await redis.schedulers('main')).keys()]).toEqual([]);
        await waitFor('a holder', holderPid, 20_000);
        await waitFor('a first check of every monitor', async () =>
            (await lastChecks()).every((r) => r.lastCheck !== null)
        );
    });

    it('remove a scheduler left in the wrong queue, and one of no monitor, at the next reconcile', async () => {
        const moved = String(monitorIds[0]);
        const every = { every: 2000 };
        const job = { name: 'check', data: { monitorId: monitorIds[0] } };
        await redis.queue.upsertJobScheduler(moved, every, job);
        await redis.chainQueue.upsertJobScheduler('999999', every, { name: 'check', data: { monitorId: 999999 } });
        expect((await redis.schedulers('main')).has(moved)).toBe(true);
        // Any change makes every worker reload its monitors and reconcile.
        await redis.emit({ name: 'MONITOR_UPDATED', monitorId: monitorIds[0] });
        await waitFor('the schedulers back in order', async () => {
            const [main, chain] = [await redis.schedulers('main'), await redis.schedulers('chain')];
            return main.size === 0 && chain.size === monitorIds.length && !chain.has('999999');
        });
        expect([...(await redis.schedulers('chain')).keys()].sort()).toEqual(monitorIds.map(String).sort());
    });

    it('send one CHAIN STALLED for a halted chain and no ALERT per node, all from the lock holder', async () => {
        sim.control.halt();
        const stalled = () => telegram.sent.filter((m) => m.text.includes('CHAIN STALLED'));
        await waitFor('the CHAIN STALLED message', () => stalled().length > 0, 60_000);
        // Every monitor has been checked many times in Error since: a second halt or an ALERT would be out by now.
        await new Promise((r) => setTimeout(r, 15_000));
        expect(stalled()).toHaveLength(1);
        const alerts = await database.db
            .select({ id: outbox.id })
            .from(outbox)
            .where(and(eq(outbox.kind, 'alert'), inArray(outbox.monitorId, monitorIds)));
        expect(alerts).toEqual([]);
        expect(telegram.sent.filter((m) => /\bALERT\b/.test(m.text))).toEqual([]);
        const pid = await holderPid();
        expect(workers.filter(ranChecks).map((w) => w.child.pid)).toEqual([pid]);
    }, 120_000);

    it('go on in another worker within 20 s of the holder killed with -9', async () => {
        const pid = await waitFor('a holder', holderPid, 20_000);
        const victim = workers.find((w) => w.child.pid === pid) as ConsoleProcess;
        const killedAt = new Date();
        await stopConsole(victim, 'SIGKILL');
        await waitFor(
            'a check of every chain-level monitor after the kill',
            async () => (await lastChecks()).every((r) => r.lastCheck && new Date(r.lastCheck) > killedAt),
            20_000
        );
        const next = await holderPid();
        expect(next).not.toBe(pid);
        expect(workers.filter((w) => w !== victim).map((w) => w.child.pid)).toContain(next);
    }, 60_000);
});
