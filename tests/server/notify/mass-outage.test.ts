import { asc, eq, inArray } from 'drizzle-orm';
import { encryptSecret } from '../../../server/auth/secrets';
import { notificationChannels, outbox } from '../../../server/db/schema';
import { ResultWriter } from '../../../server/engine/results';
import type { MonitorTarget } from '../../../server/engine/targets';
import { INITIAL_ALERT_STATE } from '../../../server/engine/transitions';
import { DIGEST_MAX_CHARS } from '../../../server/notify/digest';
import { OutboxDispatcher, type Pacing } from '../../../server/notify/outbox';
import type { FakeTelegram } from '../../support/fake-telegram';
import { startFakeTelegram, tooManyRequests, unauthorized } from '../../support/fake-telegram';
import type { TestApp } from '../helpers';
import { createTestApp, seedCompany } from '../helpers';
import { seedNode } from '../seed';

/**
 * R17, a mass outage: many alerts for one chat go out as digests, that chat is never sent more than the limit in
 * any window, every row is delivered once and in order (also across a 429), and other chats are not held up.
 * The dispatcher runs on a clock the test moves, so a minute of pacing takes no time.
 */

let t: TestApp;
let telegram: FakeTelegram;
let companyId: number;
let clock = 0;
/** Every request Telegram saw, by chat, with the test clock's time. */
let requests: { chat: string; at: number; text: string }[] = [];
const dispatchers: OutboxDispatcher[] = [];

beforeAll(async () => {
    telegram = await startFakeTelegram();
    t = await createTestApp({ telegramApiUrl: telegram.url });
    companyId = await seedCompany(t.app, 'Outage Inc');
});
afterAll(async () => {
    for (const d of dispatchers) await d.stop();
    await t?.close();
    await telegram?.close();
});
beforeEach(() => {
    telegram.script.length = 0;
    requests = [];
    telegram.reply = (m) => {
        requests.push({ chat: String(m.chat_id), at: clock, text: m.text });
        return undefined;
    };
    // Ahead of the database's clock, so that rows queued just now are due.
    clock = Date.now() + 10_000;
});

let chats = 0;
/** A channel with a chat of its own. */
async function channel(token = `${800000000 + chats}:AAH${'x'.repeat(30)}`): Promise<{ id: number; chat: string }> {
    const chat = `-200${++chats}`;
    const [ch] = await t.app.ctx.db
        .insert(notificationChannels)
        .values({
            companyId,
            name: `Chat ${chat}`,
            type: 'telegram',
            configurationObject: JSON.stringify({
                bot_token: encryptSecret(t.app.ctx.keys.secretsAtRest, token),
                chat_id: chat,
            }),
        })
        .returning();
    if (!ch) throw new Error('no channel');
    return { id: ch.id, chat };
}

type NewRow = { text: string; summary?: string | null; kind?: string };

async function queue(channelId: number, rows: NewRow[]): Promise<number[]> {
    const ids = await t.app.ctx.db
        .insert(outbox)
        .values(rows.map((r) => ({ channelId, kind: r.kind ?? 'alert', text: r.text, summary: r.summary ?? null })))
        .returning({ id: outbox.id });
    return ids.map((r) => r.id).sort((a, b) => a - b);
}

/** An engine-like alert: a full message and its digest line (HTML-escaped, as summaryLine writes it). */
const alert = (n: number): NewRow => ({
    text: `🔴 <b>ALERT</b> monitor ${n}\nProblem: height &lt; peers\n<i>Incident ${n}</i>`,
    summary: `🔴 Mainnet · validator-${n} · Block height: stalled at 1234567, peers are at 1234600 &lt;lag&gt; · #inc${n}`,
});

const rowsOf = (ids: number[]) =>
    t.app.ctx.db.select().from(outbox).where(inArray(outbox.id, ids)).orderBy(asc(outbox.id));

function dispatcher(pacing: Partial<Pacing> = {}): OutboxDispatcher {
    const d = new OutboxDispatcher(t.app.ctx, t.app.log, 100, { now: () => clock, ...pacing });
    dispatchers.push(d);
    return d;
}

const accepted = (chat: string) => telegram.sent.filter((m) => String(m.chat_id) === chat).map((m) => m.text);

/** The lines of digest messages in order; each heading's count must match the lines under it. */
function digestLines(texts: string[]): string[] {
    return texts.flatMap((text) => {
        const [heading, blank, ...lines] = text.split('\n');
        expect(heading).toBe(`📋 <b>DIGEST</b>: ${lines.length} notification${lines.length === 1 ? '' : 's'}`);
        expect(blank).toBe('');
        expect(text.length).toBeLessThanOrEqual(DIGEST_MAX_CHARS);
        return lines;
    });
}

/** The most requests one chat saw within any window of `windowMs`. */
function busiestWindow(chat: string, windowMs: number): number {
    const times = requests.filter((r) => r.chat === chat).map((r) => r.at);
    return Math.max(0, ...times.map((start) => times.filter((at) => at >= start && at < start + windowMs).length));
}

it('300 alerts for one chat: digests, paced to the limit, each row once and in order; another chat meanwhile', async () => {
    const limit = 4;
    const big = await channel();
    const other = await channel();
    // Older rows have no summary: their digest line is the text's first line.
    const rows = Array.from({ length: 300 }, (_, i) =>
        i % 50 === 0 ? { text: `<b>ALERT</b> old row ${i + 1}\nProblem: down`, summary: null } : alert(i + 1)
    );
    const bigIds = await queue(big.id, rows);
    const otherIds = await queue(other.id, [alert(1001), alert(1002), alert(1003), alert(1004), alert(1005)]);
    const d = dispatcher({ limit });

    await d.deliverDue();
    // The other chat is done at once, in one digest, although the big one is far from done.
    expect((await rowsOf(otherIds)).every((r) => r.status === 'sent')).toBe(true);
    expect(digestLines(accepted(other.chat))).toEqual([1001, 1002, 1003, 1004, 1005].map((n) => alert(n).summary));
    expect(requests.filter((r) => r.chat === big.chat)).toHaveLength(limit);
    // Over its budget, the big chat waits: another pass in the same second sends it nothing.
    await d.deliverDue();
    expect(requests.filter((r) => r.chat === big.chat)).toHaveLength(limit);

    for (let step = 0; step < 200; step++) {
        if ((await rowsOf(bigIds)).every((r) => r.status === 'sent')) break;
        clock += 5_000;
        await d.deliverDue();
    }
    const stored = await rowsOf(bigIds);
    expect(stored.every((r) => r.status === 'sent' && r.attempts === 1 && r.lastError === null)).toBe(true);
    const texts = accepted(big.chat);
    // Every row in exactly one digest, in id order.
    expect(digestLines(texts)).toEqual(
        rows.map((r) => r.summary ?? r.text.split('\n')[0]?.replace('<b>ALERT</b>', 'ALERT'))
    );
    expect(texts.length).toBeLessThan(300 / 10);
    expect(busiestWindow(big.chat, 60_000)).toBe(limit);
    expect(busiestWindow(other.chat, 60_000)).toBeLessThanOrEqual(limit);
});

it('a 429 on a digest leaves its rows pending; afterwards each is delivered once, in order', async () => {
    const ch = await channel();
    const rows = Array.from({ length: 120 }, (_, i) => alert(i + 1));
    const ids = await queue(ch.id, rows);
    // The second digest is refused, for 30 s.
    telegram.reply = (m) => {
        requests.push({ chat: String(m.chat_id), at: clock, text: m.text });
        return requests.length === 2 ? tooManyRequests(30) : undefined;
    };
    const d = dispatcher();

    await d.deliverDue();
    // Nothing after the refused digest was tried: the order holds.
    expect(requests).toHaveLength(2);
    const first = digestLines(accepted(ch.chat));
    const sentNow = (await rowsOf(ids)).filter((r) => r.status === 'sent');
    expect(sentNow.map((r) => r.id)).toEqual(ids.slice(0, first.length));
    const refused = digestLines([requests[1]?.text ?? '']).length;
    const waiting = (await rowsOf(ids)).slice(first.length);
    expect(waiting.every((r) => r.status === 'pending')).toBe(true);
    // The refused digest's rows carry the retry bookkeeping, one due time for all; the rest are untouched.
    for (const r of waiting.slice(0, refused)) {
        expect(r.attempts).toBe(1);
        expect(r.lastError).toMatch(/Too Many Requests/);
        expect(r.nextAttemptAt.getTime()).toBe(clock + 30_000);
    }
    for (const r of waiting.slice(refused)) expect([r.attempts, r.lastError]).toEqual([0, null]);

    // Not before retry_after.
    clock += 29_000;
    await d.deliverDue();
    expect(requests).toHaveLength(2);

    clock += 1_000;
    await d.deliverDue();
    const stored = await rowsOf(ids);
    expect(stored.every((r) => r.status === 'sent' && r.lastError === null)).toBe(true);
    expect(digestLines(accepted(ch.chat))).toEqual(rows.map((r) => r.summary));
    // The retried digest starts where the refused one did.
    expect(requests[2]?.text).toBe(requests[1]?.text);
    expect(stored.map((r) => r.attempts)).toEqual(
        ids.map((_, i) => (i >= first.length && i < first.length + refused ? 2 : 1))
    );
});

it('two queued rows still go out as two full messages', async () => {
    const ch = await channel();
    const ids = await queue(ch.id, [alert(1), alert(2)]);
    await dispatcher().deliverDue();
    expect((await rowsOf(ids)).map((r) => r.status)).toEqual(['sent', 'sent']);
    expect(accepted(ch.chat)).toEqual([alert(1).text, alert(2).text]);
});

it('a test message goes out as itself, in its place between digests', async () => {
    const ch = await channel();
    const test = { kind: 'test', text: '<b>Node Monitor</b>: test message for notification channel "Ops".' };
    const ids = await queue(ch.id, [alert(1), alert(2), alert(3), test, alert(4), alert(5)]);
    await dispatcher({ limit: 3 }).deliverDue();
    expect((await rowsOf(ids)).every((r) => r.status === 'sent')).toBe(true);
    const texts = accepted(ch.chat);
    expect(texts).toHaveLength(3);
    expect(digestLines([texts[0] ?? ''])).toEqual([1, 2, 3].map((n) => alert(n).summary));
    expect(texts[1]).toBe(test.text);
    expect(digestLines([texts[2] ?? ''])).toEqual([4, 5].map((n) => alert(n).summary));
});

it('a digest the channel keeps refusing fails its rows after 5 attempts, together', async () => {
    const token = `${899000000}:AAH${'r'.repeat(30)}`;
    const ch = await channel(token);
    const ids = await queue(
        ch.id,
        [1, 2, 3, 4, 5].map((n) => alert(n))
    );
    telegram.reply = (m) => (m.token === token ? unauthorized : undefined);
    const d = dispatcher();
    for (let attempt = 1; attempt <= 5; attempt++) {
        await d.deliverDue();
        const stored = await rowsOf(ids);
        expect(stored.map((r) => [r.attempts, r.status])).toEqual(
            ids.map(() => [attempt, attempt < 5 ? 'pending' : 'failed'])
        );
        await t.app.ctx.db
            .update(outbox)
            .set({ nextAttemptAt: new Date(0) })
            .where(eq(outbox.channelId, ch.id));
    }
    expect(telegram.requests.filter((r) => r.token === token)).toHaveLength(5);
});

it('the engine queues every notification with its digest line', async () => {
    const { monitorId, configurationId, serverId, channelId } = await seedNode(t.app, {
        companyId,
        services: [],
        monitor: { type: 'urlCheck', name: 'Status <page>', settings: { address: 'http://127.0.0.1:9' } },
        telegram: { chatId: '-2999' },
    });
    const target: MonitorTarget = {
        id: monitorId,
        name: 'Status <page>',
        type: 'urlCheck',
        settings: {},
        key: '',
        configuration: { id: configurationId, name: 'Sim mainnet', chain: 'cosmoshub', companyId },
        server: { id: serverId, name: 'validator-1', address: 'http://127.0.0.1' },
        services: [],
    };
    const writer = new ResultWriter(t.app.ctx.db, t.app.log);
    const checkedAt = new Date();
    writer.record({
        target,
        status: false,
        lastError: 'HTTP 503',
        checkedAt,
        state: { alert: INITIAL_ALERT_STATE, memory: null },
        transition: {
            state: INITIAL_ALERT_STATE,
            notification: {
                kind: 'alert',
                incidentId: '0123456789abcdef',
                since: checkedAt.getTime(),
                message: 'HTTP 503',
            },
            change: null,
        },
    });
    await writer.flush(true);
    const queued = await t.app.ctx.db
        .select()
        .from(outbox)
        .where(eq(outbox.channelId, channelId ?? 0));
    expect(queued.map((r) => [r.kind, r.summary])).toEqual([
        ['alert', '🔴 Sim mainnet · validator-1 · Status &lt;page&gt;: HTTP 503 · #01234567'],
    ]);
    expect(queued[0]?.text).toContain('<b>ALERT</b>');
});
