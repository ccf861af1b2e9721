import { asc, inArray } from 'drizzle-orm';
import { encryptSecret } from '../../../server/auth/secrets';
import { notificationChannels, outbox } from '../../../server/db/schema';
import { OutboxDispatcher } from '../../../server/notify/outbox';
import { type FakeTelegram, startFakeTelegram, tooManyRequests } from '../../support/fake-telegram';
import { seedCompany } from '../helpers';
import { type ClusterApps, clusterApps } from './apps';

/**
 * Channel pacing in the cluster profile: two workers' dispatchers take turns on one channel (each claims its rows
 * in turn), and between them send it no more than its messages per window; a 429 one of them met holds the other.
 * The dispatchers run on a clock the test moves, as in tests/server/notify/mass-outage.test.ts.
 */
let c: ClusterApps;
let telegram: FakeTelegram;
let companyId: number;
let clock = 0;
const dispatchers: OutboxDispatcher[] = [];

beforeAll(async () => {
    telegram = await startFakeTelegram();
    c = await clusterApps(2, 13, { telegramApiUrl: telegram.url });
    companyId = await seedCompany(web(0), 'Outage Inc');
});
afterAll(async () => {
    for (const d of dispatchers) await d.stop();
    await c?.close();
    await telegram?.close();
});
beforeEach(() => {
    // Ahead of the database's clock, so that rows queued just now are due.
    clock = Date.now() + 10_000;
});

const web = (i: number) => c.web(i);

/** The dispatcher of process `i`, as server/assembly/background.ts builds it in the cluster profile. */
function dispatcher(i: number, limit: number): OutboxDispatcher {
    const ctx = web(i).ctx;
    const d = new OutboxDispatcher({ ...ctx, shared: true, sendLog: ctx.sharedState.sendLog }, web(i).log, 100, {
        now: () => clock,
        limit,
    });
    dispatchers.push(d);
    return d;
}

let chats = 0;
async function channel(): Promise<{ id: number; chat: string }> {
    const chat = `-300${++chats}`;
    const [ch] = await web(0)
        .ctx.db.insert(notificationChannels)
        .values({
            companyId,
            name: `Chat ${chat}`,
            type: 'telegram',
            configurationObject: JSON.stringify({
                bot_token: encryptSecret(web(0).ctx.keys.secretsAtRest, `${810000000 + chats}:AAH${'x'.repeat(30)}`),
                chat_id: chat,
            }),
        })
        .returning();
    if (!ch) throw new Error('no channel');
    return { id: ch.id, chat };
}

/** `n` test messages, each sent as a message of its own (no digests). */
async function queue(channelId: number, n: number): Promise<number[]> {
    const rows = await web(0)
        .ctx.db.insert(outbox)
        .values(Array.from({ length: n }, (_, i) => ({ channelId, kind: 'test', text: `Test message ${i + 1}` })))
        .returning({ id: outbox.id });
    return rows.map((r) => r.id).sort((a, b) => a - b);
}

const sentTo = (chat: string) => telegram.sent.filter((m) => String(m.chat_id) === chat).map((m) => m.text);
const statuses = async (ids: number[]) =>
    (await web(0).ctx.db.select().from(outbox).where(inArray(outbox.id, ids)).orderBy(asc(outbox.id))).map(
        (r) => r.status
    );

it('two processes together send a channel no more than its limit per window', async () => {
    const ch = await channel();
    const ids = await queue(ch.id, 8);
    expect(await dispatcher(0, 3).deliverDue()).toBe(3);
    // The second process finds the rest due and unclaimed, but the channel's budget spent by the first.
    expect(await dispatcher(1, 3).deliverDue()).toBe(0);
    expect(sentTo(ch.chat)).toEqual(['Test message 1', 'Test message 2', 'Test message 3']);
    // A window later either process goes on where the first stopped.
    clock += 60_000;
    expect(await dispatchers[1]?.deliverDue()).toBe(3);
    expect(await dispatchers[0]?.deliverDue()).toBe(0);
    expect(sentTo(ch.chat)).toHaveLength(6);
    expect(await statuses(ids)).toEqual([...Array(6).fill('sent'), 'pending', 'pending']);
});

// Held by the refused row's next attempt in PostgreSQL, which every process reads: no Redis needed.
it('a 429 one process met holds the channel on the other until its retry_after', async () => {
    const ch = await channel();
    await queue(ch.id, 2);
    let refused = false;
    telegram.reply = (m) => {
        if (String(m.chat_id) !== ch.chat || refused) return undefined;
        refused = true;
        return tooManyRequests(30);
    };
    const [first, second] = [dispatcher(0, 20), dispatcher(1, 20)];
    await first.deliverDue();
    expect(refused).toBe(true);
    await second.deliverDue();
    clock += 29_000;
    await second.deliverDue();
    expect(sentTo(ch.chat)).toEqual([]);
    clock += 2_000;
    await second.deliverDue();
    expect(sentTo(ch.chat)).toEqual(['Test message 1', 'Test message 2']);
});
