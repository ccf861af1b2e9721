import { asc, eq, inArray } from 'drizzle-orm';
import { encryptSecret } from '../../../server/auth/secrets';
import { notificationChannels, outbox } from '../../../server/db/schema';
import { OutboxDispatcher } from '../../../server/notify/outbox';
import type { FakeTelegram } from '../../support/fake-telegram';
import { startFakeTelegram, tooManyRequests, unauthorized } from '../../support/fake-telegram';
import type { TestApp } from '../helpers';
import { createTestApp, seedCompany } from '../helpers';
import { waitFor } from '../seed';

/**
 * Issue: "a Telegram 429 burst (all delivered, in order)", and the outbox's other promises: a refusing channel gives
 * up after 5 attempts without holding up the others, a disabled channel's messages fail at once, and the bot token
 * never reaches last_error or the logs.
 */

let t: TestApp;
let telegram: FakeTelegram;
let companyId: number;
const dispatchers: OutboxDispatcher[] = [];

beforeAll(async () => {
    telegram = await startFakeTelegram();
    t = await createTestApp({ telegramApiUrl: telegram.url });
    companyId = await seedCompany(t.app, 'Outbox Inc');
});
afterAll(async () => {
    for (const d of dispatchers) await d.stop();
    await t?.close();
    await telegram?.close();
});
beforeEach(() => {
    telegram.script.length = 0;
    telegram.reply = undefined;
});

/** Realistic tokens (`<bot id>:<35 chars>`) so that the redaction is tested on the shape it must catch. */
const tokenFor = (n: number) => `${700000000 + n}:AAH${'x'.repeat(20)}Secret${String(n).padStart(6, '0')}zz`;

async function channel(name: string, token: string, chatId: string, isEnabled = true): Promise<number> {
    const [ch] = await t.app.ctx.db
        .insert(notificationChannels)
        .values({
            companyId,
            name,
            type: 'telegram',
            isEnabled,
            configurationObject: JSON.stringify({
                bot_token: encryptSecret(t.app.ctx.keys.secretsAtRest, token),
                chat_id: chatId,
            }),
        })
        .returning();
    if (!ch) throw new Error('no channel');
    return ch.id;
}

async function queue(channelId: number, texts: string[]): Promise<number[]> {
    const rows = await t.app.ctx.db
        .insert(outbox)
        .values(texts.map((text) => ({ channelId, kind: 'alert', text })))
        .returning({ id: outbox.id });
    return rows.map((r) => r.id).sort((a, b) => a - b);
}

const rowsOf = (ids: number[]) =>
    t.app.ctx.db.select().from(outbox).where(inArray(outbox.id, ids)).orderBy(asc(outbox.id));

function dispatcher(pollMs = 100): OutboxDispatcher {
    const d = new OutboxDispatcher(t.app.ctx, t.app.log, pollMs);
    dispatchers.push(d);
    return d;
}

// Three messages, no more: a longer queue goes out as a digest (mass-outage.test.ts covers a 429 on one of those).
it('a 429 burst: every message delivered exactly once, in id order, never before retry_after', {
    timeout: 30_000,
}, async () => {
    const token = tokenFor(1);
    const chat = '-1001';
    const id = await channel('Burst chat', token, chat);
    const texts = Array.from({ length: 3 }, (_, i) => `burst message ${i + 1}`);
    const ids = await queue(id, texts);
    // Two 429s at the start of the burst and one more in its middle (the first try of message 2).
    telegram.script.push(tooManyRequests(1), tooManyRequests(1));
    let midBurst = false;
    telegram.reply = (m) => {
        if (m.text !== 'burst message 2' || midBurst) return undefined;
        midBurst = true;
        return tooManyRequests(1);
    };
    const d = dispatcher();
    const started = Date.now();
    d.start();
    await waitFor('all three delivered', async () => (await rowsOf(ids)).every((r) => r.status === 'sent'), 20_000);
    await d.stop();

    const ours = telegram.requests.filter((r) => r.token === token);
    expect(ours.filter((r) => r.status === 429)).toHaveLength(3);
    expect(ours.filter((r) => r.status === 200)).toHaveLength(3);
    // Delivered exactly once each, in queue order.
    expect(telegram.sent.filter((m) => m.chat_id === chat).map((m) => m.text)).toEqual(texts);
    // retry_after honoured: after each 429, nothing reaches Telegram for that chat within the second asked for.
    for (let i = 0; i < ours.length - 1; i++) {
        const [a, b] = [ours[i], ours[i + 1]];
        if (a?.status === 429) expect((b?.at ?? 0) - a.at).toBeGreaterThanOrEqual(1000);
        // The message after a 429 is the one that was refused: nothing overtakes it.
        if (a?.status === 429) expect(b?.text).toBe(a.text);
    }
    // Three waits of a second each, but not the exponential backoff of a real failure.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
    expect(Date.now() - started).toBeLessThan(15_000);
    const rows = await rowsOf(ids);
    expect(rows.every((r) => r.sentAt !== null && r.lastError === null)).toBe(true);
    expect(rows.reduce((n, r) => n + r.attempts, 0)).toBe(6);
});

it('a 401 fails the row after 5 attempts, while another channel is delivered at once', {
    timeout: 30_000,
}, async () => {
    const badToken = tokenFor(2);
    const goodToken = tokenFor(3);
    const bad = await channel('Revoked bot', badToken, '-1002');
    const good = await channel('Working bot', goodToken, '-1003');
    telegram.reply = (m) => (m.token === badToken ? unauthorized : undefined);
    const [badId, ...badLater] = await queue(bad, ['revoked 1', 'revoked 2']);
    const goodIds = await queue(good, ['ok 1', 'ok 2', 'ok 3']);
    if (!badId) throw new Error('no row');
    const d = dispatcher();

    // Pass 1: the good channel goes through in full although the bad one, queued first, is refused.
    await d.deliverDue();
    expect((await rowsOf(goodIds)).map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
    expect(telegram.sent.filter((m) => m.chat_id === '-1003').map((m) => m.text)).toEqual(['ok 1', 'ok 2', 'ok 3']);

    for (let attempt = 1; attempt <= 5; attempt++) {
        if (attempt > 1) {
            const before = Date.now();
            // Still backing off: a pass now must not touch it.
            const requests = telegram.requests.length;
            await d.deliverDue();
            expect(telegram.requests.length).toBe(requests);
            const [row] = await rowsOf([badId]);
            // Exponential backoff of at least 5 s for a refusal without retry_after.
            expect(row?.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 4000);
            // Time passes: make it due.
            await t.app.ctx.db
                .update(outbox)
                .set({ nextAttemptAt: new Date(0) })
                .where(eq(outbox.id, badId));
            await d.deliverDue();
        }
        const [row] = await rowsOf([badId]);
        expect(row?.attempts).toBe(attempt);
        expect(row?.status).toBe(attempt < 5 ? 'pending' : 'failed');
        expect(row?.lastError).toBe('Unauthorized');
        // The later message of that channel waits behind it, untried.
        const [later] = await rowsOf(badLater);
        expect(later?.status).toBe('pending');
        expect(later?.attempts).toBe(0);
    }
    expect(telegram.requests.filter((r) => r.token === badToken)).toHaveLength(5);
    // Once the head has failed, the next message of the channel gets its own attempts.
    await d.deliverDue();
    const [later] = await rowsOf(badLater);
    expect(later?.attempts).toBe(1);
    expect(later?.status).toBe('pending');
    expect(telegram.sent.filter((m) => m.token === badToken)).toHaveLength(0);
});

it("a disabled channel's messages are marked failed without a request", async () => {
    const token = tokenFor(4);
    const id = await channel('Muted chat', token, '-1004', false);
    const ids = await queue(id, ['muted 1', 'muted 2']);
    await dispatcher().deliverDue();
    const rows = await rowsOf(ids);
    expect(rows.map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(rows.map((r) => r.lastError)).toEqual(['the channel is disabled', 'the channel is disabled']);
    expect(telegram.requests.filter((r) => r.token === token)).toHaveLength(0);
});

it('the bot token never appears in last_error or in the logs', async () => {
    const token = tokenFor(5);
    const secret = token.split(':')[1] ?? '';
    const id = await channel('Leaky chat', token, '-1005');
    const ids = await queue(id, ['leak 1']);
    // Answers that echo the token back: a description naming the request URL, then an outage page quoting it.
    const answers = [
        {
            status: 400,
            body: {
                ok: false,
                error_code: 400,
                description: `Bad Request: POST /bot${token}/sendMessage: chat not found`,
            },
        },
        {
            status: 502,
            body: `<html>upstream for https://api.telegram.org/bot${token}/sendMessage failed (${token})</html>`,
        },
        { status: 500, body: { ok: false, error_code: 500, description: `Internal error for ${token}` } },
    ];
    telegram.reply = (m) => (m.token === token ? answers.shift() : undefined);
    const d = dispatcher();
    const errors: string[] = [];
    for (let i = 0; i < 3; i++) {
        await t.app.ctx.db
            .update(outbox)
            .set({ nextAttemptAt: new Date(0) })
            .where(eq(outbox.id, ids[0] ?? 0));
        await d.deliverDue();
        const [row] = await rowsOf(ids);
        errors.push(row?.lastError ?? '');
    }
    expect(telegram.requests.filter((r) => r.token === token)).toHaveLength(3);
    expect(errors[0]).toMatch(/chat not found/);
    expect(errors[1]).toMatch(/Telegram answered HTTP 502/);
    expect(errors[2]).toMatch(/Internal error/);
    for (const e of errors) {
        expect(e).not.toContain(token);
        expect(e).not.toContain(secret);
    }
    const logs = t.logs.join('');
    expect(logs).toContain('Leaky chat');
    expect(logs).not.toContain(secret);
    // Nor the tokens of the other tests' channels.
    for (let n = 1; n <= 4; n++) expect(logs).not.toContain(tokenFor(n).split(':')[1]);
    // Nor does the stored channel configuration hold it in clear.
    const [ch] = await t.app.ctx.db.select().from(notificationChannels).where(eq(notificationChannels.id, id));
    expect(ch?.configurationObject).not.toContain(secret);
});

it('a channel with a long queue backing off does not starve the others', async () => {
    const stuck = await channel('Stuck chat', tokenFor(6), '-1006');
    const other = await channel('Other chat', tokenFor(7), '-1007');
    // More rows than one delivery pass reads (200), all waiting for a retry far in the future.
    const stuckIds = await queue(
        stuck,
        Array.from({ length: 250 }, (_, i) => `stuck ${i + 1}`)
    );
    await t.app.ctx.db
        .update(outbox)
        .set({ nextAttemptAt: new Date(Date.now() + 3_600_000), attempts: 1, lastError: 'Telegram answered HTTP 502' })
        .where(inArray(outbox.id, stuckIds));
    const otherIds = await queue(other, ['queued after them']);
    expect(await dispatcher().deliverDue()).toBe(1);
    expect((await rowsOf(otherIds))[0]?.status).toBe('sent');
    expect(telegram.sent.filter((m) => m.chat_id === '-1007').map((m) => m.text)).toEqual(['queued after them']);
    expect(telegram.requests.filter((r) => r.token === tokenFor(6))).toHaveLength(0);
    // Done with it: it must not disturb a later pass.
    await t.app.ctx.db.update(outbox).set({ status: 'failed' }).where(inArray(outbox.id, stuckIds));
});
