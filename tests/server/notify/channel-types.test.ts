import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { notificationChannels } from '../../../server/db/schema';
import { answers, type FakeSmtp, type Receiver, startReceiver, startSmtp } from '../../support/fake-receivers';
import { createWorld, type World } from '../config-fixtures';
import { login, seedUser } from '../helpers';

/**
 * Each channel type besides Telegram against a loopback receiver answering as the real service does, through the
 * channel API: the test message arrives in the type's own format, a refusal answers with the destination's own
 * error code (never a body), bad settings answer 400 naming the field, and secrets are encrypted at rest and masked on read.
 */

let w: World;
let discord: Receiver;
let slack: Receiver;
let pagerduty: Receiver;
let hook: Receiver;
let smtp: FakeSmtp;

beforeAll(async () => {
    discord = await startReceiver(answers.discordOk);
    slack = await startReceiver(answers.slackOk);
    pagerduty = await startReceiver(answers.pagerdutyAccepted());
    hook = await startReceiver({ status: 200, body: { received: true } });
    smtp = await startSmtp();
    w = await createWorld({ pagerdutyEventsUrl: pagerduty.url });
});
afterAll(async () => {
    await w?.t.close();
    for (const r of [discord, slack, pagerduty, hook]) await r?.close();
    await smtp?.close();
});

const DISCORD_TOKEN = 'AbCdEfGh_discord-token-secret-123';
const discordUrl = () => `${discord.url}/api/webhooks/123456789012345678/${DISCORD_TOKEN}`;
const slackUrl = () => `${slack.url}/services/T000/B000/slacksecretXYZ`;
const ROUTING_KEY = 'R0UT1NGKEYR0UT1NGKEYR0UT1NGKEY32';
const HOOK_SECRET = 'whsec-correct-horse';

const settings = {
    discord: () => ({ webhook_url: discordUrl() }),
    slack: () => ({ webhook_url: slackUrl() }),
    pagerduty: () => ({ routing_key: ROUTING_KEY }),
    webhook: () => ({ url: `${hook.url}/in`, secret: HOOK_SECRET, headers: { 'X-Team': 'ops' } }),
    email: () => ({
        host: '127.0.0.1',
        port: smtp.port,
        security: 'none',
        from: 'Node Monitor <alerts@example.com>',
        to: 'ops@example.com, oncall@example.com',
    }),
};
type Type = keyof typeof settings;

/** Channel tests are limited to 5 a minute per user: each tester of Acme makes at most that many. */
let tests = 0;
let tester = '';
async function testerToken(): Promise<string> {
    if (tests++ % 5 === 0) {
        const username = `tester${tests}`;
        await seedUser(w.t.app, { username, companyId: w.acme, isAdmin: true });
        tester = (await login(w.t.app, username)).access;
    }
    return tester;
}

const test = async (type: Type, config: object = settings[type](), name = 'ops <team>') =>
    w.call('POST', '/api/notification-channels/test', await testerToken(), {
        name,
        type,
        configuration_object: JSON.stringify(config),
        is_enabled: true,
    });

describe('test messages arrive in each type’s own format', () => {
    it('discord: an execute-webhook embed, mentions off', async () => {
        const res = await test('discord');
        expect(res.json()).toEqual({ message: 'Notification channel tested successfully!' });
        const got = discord.received.at(-1);
        expect(got?.path).toBe(`/api/webhooks/123456789012345678/${DISCORD_TOKEN}`);
        expect(got?.json).toMatchObject({
            embeds: [{ title: '[TEST] Node Monitor', color: expect.any(Number) }],
            allowed_mentions: { parse: [] },
        });
        expect(JSON.stringify(got?.json)).toContain('ops <team>');
    });

    it('slack: text fallback and blocks, user text escaped for mrkdwn', async () => {
        expect((await test('slack')).statusCode).toBe(200);
        const got = slack.received.at(-1)?.json as { text: string; blocks: { type: string; text: { text: string } }[] };
        expect(got.text).toContain('[TEST] Node Monitor');
        expect(got.blocks.map((b) => b.type)).toEqual(['header', 'section']);
        expect(got.blocks[1]?.text.text).toContain('ops &lt;team&gt;');
    });

    it('pagerduty: an Events API v2 event to /v2/enqueue with the routing key', async () => {
        expect((await test('pagerduty')).statusCode).toBe(200);
        const got = pagerduty.received.at(-1);
        expect(got?.path).toBe('/v2/enqueue');
        expect(got?.json).toMatchObject({
            routing_key: ROUTING_KEY,
            event_action: 'trigger',
            payload: { severity: 'info', source: 'Node Monitor' },
        });
    });

    it('webhook: the documented body, extra headers, and a signature that verifies', async () => {
        expect((await test('webhook')).statusCode).toBe(200);
        const got = hook.received.at(-1);
        expect(got?.path).toBe('/in');
        expect(got?.headers['x-team']).toBe('ops');
        expect(got?.json).toMatchObject({
            version: 1,
            kind: 'test',
            incident_id: null,
            message: 'Test message for notification channel "ops <team>"',
            sent_at: expect.any(String),
        });
        const sig = String(got?.headers['x-node-monitor-signature']);
        const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(sig) ?? [];
        const mac = (secret: string) => createHmac('sha256', secret).update(`${t}.${got?.raw}`).digest('hex');
        expect(v1).toBe(mac(HOOK_SECRET));
        expect(v1).not.toBe(mac('a wrong secret'));
    });

    it('email: a real SMTP delivery to every recipient, text and HTML parts', async () => {
        expect((await test('email')).statusCode).toBe(200);
        const mail = smtp.mails.at(-1);
        expect(mail?.from).toBe('alerts@example.com');
        expect(mail?.to).toEqual(['ops@example.com', 'oncall@example.com']);
        expect(mail?.raw).toMatch(/^Subject: \[TEST\] Node Monitor/m);
        expect(mail?.raw).toContain('text/plain');
        expect(mail?.raw).toContain('text/html');
    });
});

describe('a refusal answers with the destination’s own text', () => {
    it('discord 404 Unknown Webhook, and 429 with its retry_after', async () => {
        discord.script.push(answers.discordUnknownWebhook);
        const gone = await test('discord');
        expect(gone.statusCode).toBe(400);
        expect(gone.json().message).toBe('Discord: Unknown Webhook');
        discord.script.push(answers.discordRateLimited(2.5));
        const busy = await test('discord');
        expect(busy.statusCode).toBe(400);
        expect(busy.json()).toEqual({
            message: 'Discord: You are being rate limited. (retry after 3 s)',
            retry_after: 3,
        });
    });

    it('slack plain-text errors', async () => {
        slack.script.push(answers.slackNoService);
        expect((await test('slack')).json().message).toBe('Slack: no_service');
        slack.script.push(answers.slackRateLimited(7));
        expect((await test('slack')).json()).toEqual({
            message: 'Slack: rate_limited (retry after 7 s)',
            retry_after: 7,
        });
    });

    it('pagerduty 400 names what is invalid; 429 asks to wait', async () => {
        pagerduty.script.push(answers.pagerdutyInvalid);
        const bad = await test('pagerduty');
        expect(bad.statusCode).toBe(400);
        expect(bad.json().message).toBe(
            "PagerDuty: Event object is invalid (Length of 'routing_key' is incorrect (should be 32 characters))"
        );
        pagerduty.script.push(answers.pagerdutyThrottled);
        expect((await test('pagerduty')).json().retry_after).toBe(5);
    });

    it('webhook: the status, never the body', async () => {
        hook.script.push({ status: 403, body: 'signature rejected' });
        expect((await test('webhook')).json().message).toBe('The webhook answered HTTP 403');
    });

    it('email: the SMTP server’s reply code and what it means, never its text', async () => {
        smtp.refuseRecipients = 'No such user here';
        try {
            const res = await test('email');
            expect(res.statusCode).toBe(400);
            expect(res.json().message).toBe(
                'The SMTP server answered 550: it refused the mailbox (unknown or not allowed)'
            );
        } finally {
            smtp.refuseRecipients = undefined;
        }
    });

    it('an unreachable destination answers 502', async () => {
        const res = await test('slack', { webhook_url: 'http://127.0.0.1:9/services/x' });
        expect(res.statusCode).toBe(502);
        expect(res.json().message).toMatch(/^Slack could not be reached/);
    });
});

describe('bad settings answer 400 naming the field', () => {
    it.each([
        [
            'discord',
            { webhook_url: `${'http://127.0.0.1:1'}/webhooks/1/x` },
            'webhook_url',
            /api\/webhooks\/\{id\}\/\{token\}/,
        ],
        ['discord', {}, 'webhook_url', /Please enter a webhook URL!/],
        ['email', { host: 'smtp.example.com', port: 25, security: 'none', from: 'a@example.com' }, 'to', /recipient/],
        [
            'email',
            { host: 'smtp.example.com', port: 'x', from: 'a@example.com', to: 'b@example.com' },
            'port',
            /whole number/,
        ],
        ['email', { host: 'smtp.example.com', port: 25, from: 'a@example.com', to: 'b@example, c' }, 'to', /commas/],
        ['webhook', { url: 'ftp://example.com/in', secret: 's' }, 'url', /http\(s\)/],
        [
            'webhook',
            { url: 'https://example.com/in', secret: 's', headers: { 'Content-Type': 'x' } },
            'headers',
            /reserved/,
        ],
        ['pagerduty', { routing_key: ROUTING_KEY, severity_map: { critical: 'loud' } }, 'severity_map', /critical/],
        ['slack', { webhook_url: 'hooks.slack.com/services/x' }, 'webhook_url', /http\(s\)/],
    ])('%s %j → %s', async (type, config, field, message) => {
        const res = await w.call('POST', '/api/notification-channels', w.admin.access, {
            name: 'bad',
            type,
            configuration_object: JSON.stringify(config),
            is_enabled: true,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors[field]).toMatch(message);
    });
});

it('secrets of every type are encrypted at rest and masked on every read', async () => {
    for (const type of Object.keys(settings) as Type[]) {
        const config =
            type === 'email'
                ? { ...settings.email(), username: 'mailer', password: 'smtp-pass-secret' }
                : settings[type]();
        const res = await w.call('POST', '/api/notification-channels', w.admin.access, {
            name: `${type} channel`,
            type,
            configuration_object: JSON.stringify(config),
            is_enabled: true,
        });
        expect(res.statusCode).toBe(201);
        const { id, configuration_object } = res.json();
        for (const secret of [DISCORD_TOKEN, 'slacksecretXYZ', ROUTING_KEY, HOOK_SECRET, 'smtp-pass-secret']) {
            expect(configuration_object).not.toContain(secret);
            expect((await w.call('GET', `/api/notification-channels/${id}`, w.plain.access)).body).not.toContain(
                secret
            );
        }
        const [row] = await w.t.app.ctx.db.select().from(notificationChannels).where(eq(notificationChannels.id, id));
        for (const secret of [DISCORD_TOKEN, ROUTING_KEY, HOOK_SECRET, 'smtp-pass-secret'])
            expect(row?.configurationObject).not.toContain(secret);
        // The mask sent back keeps the stored secret: a test through the saved channel still reaches the receiver.
        const before = [discord, slack, pagerduty, hook].reduce((n, r) => n + r.received.length, 0) + smtp.mails.length;
        const again = await w.call('POST', '/api/notification-channels/test', await testerToken(), {
            id,
            name: `${type} channel`,
            type,
            configuration_object: configuration_object,
            is_enabled: true,
        });
        expect(again.json()).toEqual({ message: 'Notification channel tested successfully!' });
        const after = [discord, slack, pagerduty, hook].reduce((n, r) => n + r.received.length, 0) + smtp.mails.length;
        expect(after).toBe(before + 1);
    }
    // Nor do the logs hold any of them.
    const logs = w.t.logs.join('');
    for (const secret of [DISCORD_TOKEN, 'slacksecretXYZ', ROUTING_KEY, HOOK_SECRET, 'smtp-pass-secret'])
        expect(logs).not.toContain(secret);
});
