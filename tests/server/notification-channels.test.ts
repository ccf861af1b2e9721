import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { notificationChannels, outbox } from '../../server/db/schema';
import { OutboxDispatcher } from '../../server/notify/outbox';
import { createWorld, type World } from './config-fixtures';
import { login, seedUser } from './helpers';

const TOKEN = '7654321098:AAHsecretTokenPartThatMustNeverLeak_x';
const BAD_TOKEN = '1111111111:AAHrevokedTokenThatTelegramRefuses_y';
const BUSY_TOKEN = '2222222222:AAHbusyTokenForRateLimitedBotzzzz_z';

interface Received {
    path: string;
    body: Record<string, unknown>;
}

/** A fake Bot API: accepts TOKEN, answers 401 for BAD_TOKEN and 429 with retry_after for BUSY_TOKEN. */
function fakeTelegram(received: Received[]) {
    return http.createServer((req, res) => {
        let raw = '';
        req.on('data', (c) => {
            raw += c;
        });
        req.on('end', () => {
            received.push({ path: req.url ?? '', body: JSON.parse(raw || '{}') });
            const answer = (status: number, body: object) => {
                res.writeHead(status, { 'content-type': 'application/json' });
                res.end(JSON.stringify(body));
            };
            if (req.url === `/bot${TOKEN}/sendMessage`) return answer(200, { ok: true, result: { message_id: 77 } });
            if (req.url === `/bot${BUSY_TOKEN}/sendMessage`) {
                return answer(429, {
                    ok: false,
                    error_code: 429,
                    description: 'Too Many Requests: retry after 5',
                    parameters: { retry_after: 5 },
                });
            }
            return answer(401, { ok: false, error_code: 401, description: 'Unauthorized' });
        });
    });
}

let w: World;
let fake: http.Server;
const received: Received[] = [];

beforeAll(async () => {
    fake = fakeTelegram(received);
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    w = await createWorld({ telegramApiUrl: `http://127.0.0.1:${(fake.address() as AddressInfo).port}` });
});
afterAll(async () => {
    await w.t.close();
    await new Promise((resolve) => fake.close(resolve));
});

const body = (patch: object = {}) => ({
    name: 'ops <b>team</b>',
    type: 'telegram',
    configuration_object: JSON.stringify({ bot_token: TOKEN, chat_id: '-1001234567890', topic_id: '12' }),
    is_enabled: true,
    ...patch,
});

describe('notification channels CRUD', () => {
    it('creates with the token encrypted at rest and masked on every read', async () => {
        const res = await w.call('POST', '/api/notification-channels', w.admin.access, body());
        expect(res.statusCode).toBe(201);
        const ch = res.json();
        expect(ch).toMatchObject({ name: 'ops <b>team</b>', type: 'telegram', is_enabled: true, company_id: w.acme });
        expect(typeof ch.created_at).toBe('string');
        expect(JSON.parse(ch.configuration_object)).toEqual({
            bot_token: '••••ak_x',
            chat_id: '-1001234567890',
            topic_id: '12',
        });
        for (const who of [w.root, w.admin, w.plain]) {
            const list = await w.call('GET', '/api/notification-channels', who.access);
            expect(list.body).not.toContain('AAHsecret');
            const one = await w.call('GET', `/api/notification-channels/${ch.id}`, who.access);
            expect(JSON.parse(one.json().configuration_object).bot_token).toBe('••••ak_x');
        }
        const [row] = await w.t.app.ctx.db
            .select()
            .from(notificationChannels)
            .where(eq(notificationChannels.id, ch.id));
        expect(row?.configurationObject).not.toContain('AAHsecret');
        expect(JSON.parse(row?.configurationObject ?? '{}').bot_token).toMatch(/^enc:v1:/);
        expect(w.events).toContainEqual({ name: 'NOTIFICATION_CHANNEL_CREATED', channelId: ch.id });
        expect((await w.audit()).map((a) => a.message)).toContain(
            'Notification channel "ops <b>team</b>" created by alice'
        );
    });

    it('keeps the stored token when the mask comes back or the token is left out, replaces it when a new one is sent', async () => {
        const ch = (await w.call('POST', '/api/notification-channels', w.admin.access, body({ name: 'keep' }))).json();
        const masked = await w.call('PUT', `/api/notification-channels/${ch.id}`, w.admin.access, {
            ...ch,
            chat_id: undefined,
        });
        expect(masked.statusCode).toBe(200);
        const omitted = await w.call('PUT', `/api/notification-channels/${ch.id}`, w.admin.access, {
            name: 'keep',
            type: 'telegram',
            configuration_object: { chat_id: '-42' },
            is_enabled: false,
        });
        expect(omitted.statusCode).toBe(200);
        expect(JSON.parse(omitted.json().configuration_object)).toEqual({ bot_token: '••••ak_x', chat_id: '-42' });
        const test = await w.call('POST', '/api/notification-channels/test', w.admin.access, {
            ...omitted.json(),
            id: ch.id,
        });
        expect(test.statusCode).toBe(200);
        expect(received.at(-1)?.path).toBe(`/bot${TOKEN}/sendMessage`);
        const replaced = await w.call('PUT', `/api/notification-channels/${ch.id}`, w.admin.access, {
            name: 'keep',
            type: 'telegram',
            configuration_object: { bot_token: BAD_TOKEN, chat_id: '-42' },
        });
        expect(JSON.parse(replaced.json().configuration_object).bot_token).toBe('••••es_y');
        expect(w.events).toContainEqual({ name: 'NOTIFICATION_CHANNEL_UPDATED', channelId: ch.id });
    });

    it('deletes with its links', async () => {
        const ch = (await w.call('POST', '/api/notification-channels', w.admin.access, body({ name: 'bye' }))).json();
        const cfg = await w.configuration(w.admin.access);
        await w.call('POST', `/api/configurations/${cfg}/notification-channels`, w.admin.access, {
            configuration_id: cfg,
            notification_channel_id: ch.id,
        });
        expect((await w.call('DELETE', `/api/notification-channels/${ch.id}`, w.admin.access)).statusCode).toBe(200);
        expect(
            (await w.call('GET', `/api/configurations/${cfg}/notification-channels`, w.admin.access)).json()
        ).toEqual([]);
        expect(w.events).toContainEqual({ name: 'NOTIFICATION_CHANNEL_DELETED', channelId: ch.id });
        expect((await w.audit()).map((a) => a.message)).toContain('Notification channel "bye" deleted by alice');
    });

    it.each([
        [{ name: '' }, 'name', 'Please enter a name!'],
        [{ name: undefined }, 'name', 'Please enter a name!'],
        [{ type: undefined }, 'type', 'Please select a type!'],
        [{ type: 'sms' }, 'type', 'Please select a type!'],
        [{ configuration_object: null }, 'configuration_object', 'Please enter a configuration object!'],
        [{ configuration_object: undefined }, 'configuration_object', 'Please enter a configuration object!'],
        [{ configuration_object: '[1]' }, 'configuration_object', 'configuration_object must be a JSON object'],
        [{ configuration_object: '{"chat_id":"1"}' }, 'bot_token', 'Please enter a bot token!'],
        [{ configuration_object: '{"bot_token":"••••ak_x","chat_id":"1"}' }, 'bot_token', 'Please enter a bot token!'],
        [
            { configuration_object: '{"bot_token":"12:ab/../x","chat_id":"1"}' },
            'bot_token',
            'Bot token may only hold letters, digits, ":", "_" and "-" (as BotFather gives it)',
        ],
        [{ configuration_object: { bot_token: '1:a' } }, 'chat_id', 'Please enter a chat ID!'],
        [
            { configuration_object: { bot_token: '1:a', chat_id: 1, topic_id: 'x' } },
            'topic_id',
            'Topic ID must be a whole number',
        ],
        [
            { configuration_object: { bot_token: '1:a', chat_id: 1, webhook: 'x' } },
            'webhook',
            'Unknown setting for telegram',
        ],
        [{ company: 3 }, 'company', 'Unknown field company'],
    ])('refuses %j naming %s', async (patch, field, text) => {
        const res = await w.call('POST', '/api/notification-channels', w.admin.access, body(patch));
        expect(res.statusCode).toBe(400);
        expect(res.json().errors[field]).toBe(text);
    });

    it('puts a super admin channel in the company named, else asks for one', async () => {
        const res = await w.call('POST', '/api/notification-channels', w.root.access, body({ company_id: w.globex }));
        expect(res.json().company_id).toBe(w.globex);
        const none = await w.call('POST', '/api/notification-channels', w.root.access, body());
        expect(none.statusCode).toBe(400);
        expect(none.json().errors.company_id).toBe('Please select a company');
    });
});

describe('notification channel delivery state', () => {
    /** Queues one alert to the channel and runs one delivery pass, as the outbox worker does. */
    async function deliverOne(channelId: number, text: string) {
        await w.t.app.ctx.db.insert(outbox).values({ channelId, kind: 'alert', text });
        await new OutboxDispatcher(w.t.app.ctx, w.t.app.log).deliverDue();
    }
    const cfg = (token: string) => JSON.stringify({ bot_token: token, chat_id: '-1009' });

    it('says a channel whose messages Telegram refuses is failing, with the reason, until one is accepted', async () => {
        const bad = (
            await w.call(
                'POST',
                '/api/notification-channels',
                w.admin.access,
                body({ name: 'revoked bot', configuration_object: cfg(BAD_TOKEN) })
            )
        ).json();
        const good = (
            await w.call('POST', '/api/notification-channels', w.admin.access, body({ name: 'working bot' }))
        ).json();
        expect((await w.call('GET', `/api/notification-channels/${bad.id}`, w.admin.access)).json().delivery).toEqual({
            status: 'ok',
            last_error: null,
            since: null,
        });
        await deliverOne(bad.id, 'node down');
        await deliverOne(good.id, 'node down');

        const list = (await w.call('GET', '/api/notification-channels', w.admin.access)).json() as {
            id: number;
            delivery: { status: string; last_error: string | null; since: string | null };
        }[];
        const failing = list.find((c) => c.id === bad.id)?.delivery;
        expect(failing?.status).toBe('failing');
        expect(failing?.last_error).toContain('Unauthorized');
        expect(failing?.last_error).not.toContain('AAHrevoked');
        expect(typeof failing?.since).toBe('string');
        expect(list.find((c) => c.id === good.id)?.delivery.status).toBe('ok');
        // Another company never sees the channel, nor its delivery state.
        const foreign = await w.call('GET', `/api/notification-channels/${bad.id}`, w.other.access);
        expect(foreign.statusCode).toBe(404);

        // The operator fixes the token: the waiting message goes through on its retry and the channel is ok again.
        await w.call(
            'PUT',
            `/api/notification-channels/${bad.id}`,
            w.admin.access,
            body({ name: 'revoked bot', configuration_object: cfg(TOKEN) })
        );
        await w.t.app.ctx.db.update(outbox).set({ nextAttemptAt: new Date() }).where(eq(outbox.channelId, bad.id));
        await new OutboxDispatcher(w.t.app.ctx, w.t.app.log).deliverDue();
        const after = (await w.call('GET', `/api/notification-channels/${bad.id}`, w.admin.access)).json();
        expect(after.delivery.status).toBe('ok');
    });
});

describe('notification channel test', () => {
    it('sends a real message and answers the spec sentence', async () => {
        const res = await w.call('POST', '/api/notification-channels/test', w.admin.access, body());
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ message: 'Notification channel tested successfully!' });
        const sent = received.at(-1);
        expect(sent?.path).toBe(`/bot${TOKEN}/sendMessage`);
        expect(sent?.body).toMatchObject({ chat_id: '-1001234567890', parse_mode: 'HTML', message_thread_id: 12 });
        expect(sent?.body.text).toContain('ops &lt;b&gt;team&lt;/b&gt;');
    });

    it("answers 400 with Telegram's description on 401 and 429 (with retry_after)", async () => {
        const cfg = (token: string) => JSON.stringify({ bot_token: token, chat_id: '5' });
        const bad = await w.call(
            'POST',
            '/api/notification-channels/test',
            w.admin.access,
            body({ configuration_object: cfg(BAD_TOKEN) })
        );
        expect(bad.statusCode).toBe(400);
        expect(bad.json()).toEqual({ message: 'Unauthorized' });
        const busy = await w.call(
            'POST',
            '/api/notification-channels/test',
            w.admin.access,
            body({ configuration_object: cfg(BUSY_TOKEN) })
        );
        expect(busy.statusCode).toBe(400);
        expect(busy.json()).toEqual({ message: 'Too Many Requests: retry after 5', retry_after: 5 });
    });

    it('answers 502 with a sentence when Telegram cannot be reached', async () => {
        const { createWorld: again } = await import('./config-fixtures');
        const offline = await again({ telegramApiUrl: 'http://127.0.0.1:9' });
        try {
            const res = await offline.call('POST', '/api/notification-channels/test', offline.admin.access, body());
            expect(res.statusCode).toBe(502);
            expect(res.json().message).toBe('Telegram could not be reached: the Bot API refused the connection');
            expect(res.body).not.toContain('AAHsecret');
        } finally {
            await offline.t.close();
        }
    });

    it('refuses read-only users and limits tests to 5 a minute per user', async () => {
        expect((await w.call('POST', '/api/notification-channels/test', w.plain.access, body())).statusCode).toBe(403);
        // gus has not tested yet: five pass, the sixth is refused.
        const codes: number[] = [];
        for (let i = 0; i < 6; i++) {
            codes.push((await w.call('POST', '/api/notification-channels/test', w.other.access, body())).statusCode);
        }
        expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
        const limited = await w.call('POST', '/api/notification-channels/test', w.other.access, body());
        expect(limited.json().message).toMatch(/^Too many notification channel tests/);
    });

    it('resolves a stored token by id only within the caller company', async () => {
        const acmeChannel = (
            await w.call('POST', '/api/notification-channels', w.admin.access, body({ name: 'r' }))
        ).json();
        const withId = { ...body(), configuration_object: { chat_id: '1' }, id: acmeChannel.id };
        expect((await w.call('POST', '/api/notification-channels/test', w.root.access, withId)).statusCode).toBe(200);
        await seedUser(w.t.app, { username: 'gina', companyId: w.globex, isAdmin: true });
        const gina = await login(w.t.app, 'gina');
        const foreign = await w.call('POST', '/api/notification-channels/test', gina.access, withId);
        expect(foreign.statusCode).toBe(404);
        expect(foreign.json()).toEqual({ message: 'Notification channel not found' });
    });

    it('keeps the token out of logs, audit entries and the database', async () => {
        const logs = w.t.logs.join('\n');
        expect(logs).not.toContain('AAHsecret');
        expect(logs).not.toContain('AAHrevoked');
        expect(logs).not.toContain('AAHbusy');
        expect(JSON.stringify(await w.audit())).not.toMatch(/AAH(secret|revoked|busy)/);
        const rows = await w.t.app.ctx.db.select().from(notificationChannels);
        expect(JSON.stringify(rows)).not.toMatch(/AAH(secret|revoked|busy)/);
    });
});
