import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { incidents, notificationChannels, outbox, users } from '../../server/db/schema';
import { actionKey, signButton } from '../../server/notify/telegram/callback-data';
import { waitFor } from '../server/seed';
import { type ClusterEnv, clusterEnv } from './cluster-env';
import { dutyHolders } from './duty-lock';
import { type ConsoleProcess, stopConsole } from './processes';
import { seedTelegramChannel, seedTenant } from './seed';

/**
 * The parts that must run once in the cluster (heartbeat, channel notices, Telegram pollers, sweeper, history
 * upkeep), with three real `worker` processes on one PostgreSQL and one Redis: one worker runs them, another takes
 * over when it is killed with -9. The cases share the processes and run in order.
 */
const TOKEN = '123456:SINGLETONS-token';
const CHAT = '-4343';

let cluster: ClusterEnv;
let heartbeat: Server;
let beats: number[] = [];
let companyId: number;
let configurationId: number;
const workers: ConsoleProcess[] = [];
/** When the last worker said it runs: every worker has started its timers by then. */
let allRunningAt = 0;

/** The pid of the process holding the lock of the cluster-wide duties, from its connection's application_name. */
async function holderPid(): Promise<number | null> {
    const holders = await dutyHolders(cluster);
    if (holders.length > 1) throw new Error(`several holders: ${holders.map((h) => h.name).join(', ')}`);
    return holders[0]?.pid ?? null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
    cluster = await clusterEnv({ name: 'singletons' });
    heartbeat = createServer((_req, res) => {
        beats.push(Date.now());
        res.end('ok');
    });
    await new Promise<void>((r) => heartbeat.listen(0, '127.0.0.1', r));
    ({ companyId, configurationId } = await seedTenant(cluster, 'Singletons'));
    // The super admin whose company's channels hear of a failing channel (channel-watch.ts).
    await cluster.db
        .insert(users)
        .values({ username: 'root', passwordHash: 'x', isSuperAdmin: true, isAdmin: true, companyId });
    await seedTelegramChannel(cluster, { companyId, token: TOKEN, chat: CHAT });
    const beat = {
        HEARTBEAT_URL: `http://127.0.0.1:${(heartbeat.address() as AddressInfo).port}/beat`,
        HEARTBEAT_INTERVAL_SECONDS: '1',
    };
    workers.push(...(await Promise.all([1, 2, 3].map(() => cluster.start('worker', beat)))));
    allRunningAt = Date.now();
}, 180_000);

afterAll(async () => {
    await cluster?.stop();
    heartbeat?.close();
});

describe('the cluster-wide duties with three workers', () => {
    it('run in one worker', async () => {
        const pid = await waitFor('a holder', holderPid, 20_000);
        expect(workers.map((w) => w.child.pid)).toContain(pid);
    });

    it('poll the bot from one process at a time (no 409), and a press acknowledges its incident', async () => {
        const polls = () => cluster.telegram.polls.filter((p) => p.token === TOKEN).length;
        // The fake holds each poll up to 2 s: ten polls span about 20 s, time for three pollers to meet many times.
        await waitFor('ten polls of the bot', () => polls() >= 10, 40_000);
        expect(cluster.telegram.conflicts.filter((c) => c.token === TOKEN)).toEqual([]);
        const incidentId = randomUUID();
        await cluster.db.insert(incidents).values({
            id: incidentId,
            companyId,
            kind: 'monitor',
            configurationId,
            configurationName: 'Sim mainnet',
            payload: '{}',
            openedAt: new Date(),
        });
        const data = signButton(actionKey(cluster.appSecret), CHAT, {
            action: 'ack',
            incidentId,
            targetId: 1,
            issuedAt: Date.now(),
        });
        const id = cluster.telegram.press({
            token: TOKEN,
            chatId: Number(CHAT),
            userId: 7,
            username: 'alice',
            messageId: 1,
            data: data ?? '',
        });
        const answer = await waitFor('the answer', () =>
            cluster.telegram.answers.find((a) => a.callback_query_id === id)
        );
        expect(answer.text).toBe('Acknowledged by @alice. Reminders for this incident stop.');
        const [row] = await cluster.db.select().from(incidents).where(eq(incidents.id, incidentId));
        expect(row?.acknowledgedVia).toBe('telegram');
        expect(cluster.telegram.answers.filter((a) => a.callback_query_id === id)).toHaveLength(1);
        expect(cluster.telegram.conflicts.filter((c) => c.token === TOKEN)).toEqual([]);
    }, 90_000);

    it('send one heartbeat per interval, not one per worker', async () => {
        // HEARTBEAT_INTERVAL_SECONDS=1: one process sends at most 7 in 6 s (its timer never fires sooner); three
        // would send about 18. A count of requests, not a speed.
        await waitFor('a heartbeat', () => beats.length > 0, 20_000);
        beats = [];
        await sleep(6000);
        expect(beats.length).toBeGreaterThan(0);
        expect(beats.length).toBeLessThanOrEqual(8);
    });

    it('tell the super admins once of a channel that stopped delivering, not once per worker', async () => {
        // Each process's channel watch first looks 60 s after it started and remembers what it told: a failure
        // that begins after every worker has looked once would be told by each of them.
        await sleep(Math.max(0, allRunningAt + 62_000 - Date.now()));
        const [failing] = await cluster.db
            .insert(notificationChannels)
            .values({
                companyId,
                name: 'Pager hook',
                type: 'webhook',
                configurationObject: JSON.stringify({ url: 'http://127.0.0.1:9/' }),
            })
            .returning();
        const insertedAt = Date.now();
        // Waiting for a retry a day away after errors for 20 minutes: failing, and never due in this test.
        await cluster.db.insert(outbox).values({
            channelId: failing?.id ?? 0,
            kind: 'alert',
            text: 'queued',
            attempts: 3,
            lastError: 'connection refused',
            createdAt: new Date(insertedAt - 20 * 60_000),
            nextAttemptAt: new Date(insertedAt + 86_400_000),
        });
        const told = () => cluster.telegram.sent.filter((m) => m.text.includes('CHANNEL NOT DELIVERING'));
        await waitFor('the notice', () => told().length > 0, 70_000);
        // Every worker has looked at least once more since the failure began.
        await sleep(Math.max(0, insertedAt + 62_000 - Date.now()));
        expect(told()).toHaveLength(1);
        expect(told()[0]?.text).toContain('Pager hook');
        const rows = await cluster.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.kind, 'channel-failing'));
        expect(rows).toHaveLength(1);
    }, 180_000);

    it('move to another worker within 20 s of the holder killed with -9: polling and heartbeats go on', async () => {
        const pid = await waitFor('a holder', holderPid, 20_000);
        const victim = workers.find((w) => w.child.pid === pid) as ConsoleProcess;
        const killedAt = performance.now();
        await stopConsole(victim, 'SIGKILL');
        // Counted once the victim is gone: what arrives from now on comes from another process.
        const polls = cluster.telegram.polls.length;
        beats = [];
        const left = () => killedAt + 20_000 - performance.now();
        const next = await waitFor(
            'another holder',
            async () => {
                const now = await holderPid();
                return now !== null && now !== pid ? now : null;
            },
            left()
        );
        expect(workers.filter((w) => w !== victim).map((w) => w.child.pid)).toContain(next);
        await waitFor('a poll by the new holder', () => cluster.telegram.polls.length > polls, left());
        await waitFor('a heartbeat by the new holder', () => beats.length > 0, left());
        expect(cluster.telegram.conflicts.filter((c) => c.token === TOKEN)).toEqual([]);
    }, 90_000);
});
