import type { AppConfig } from '../../../server/config';
import { outbox } from '../../../server/db/schema';
import { OutboxDispatcher } from '../../../server/notify/outbox';
import { type NotificationFacts, toRecord } from '../../../server/notify/record';
import { answers, type FakeSmtp, type Receiver, startReceiver, startSmtp } from '../../support/fake-receivers';
import { type FakeTelegram, startFakeTelegram } from '../../support/fake-telegram';
import { auth, createTestApp, login, seedCompany, seedUser, type TestApp } from '../helpers';

/**
 * PUBLIC_URL: every ALERT, reminder and RECOVERED links the incident's page on every channel, a warning the
 * monitor's page; without PUBLIC_URL no message carries a link.
 */

/**
 * An app and a company admin's token. Building the app and hashing passwords (scrypt, made slow on purpose) are
 * most of this file's time, so each app is built once, here rather than in a test, with one user rather than
 * createWorld's four.
 */
interface Admin {
    t: TestApp;
    token: string;
}
async function companyAdmin(overrides: Partial<AppConfig>): Promise<Admin> {
    const t = await createTestApp(overrides);
    await seedUser(t.app, { username: 'alice', companyId: await seedCompany(t.app, 'Acme'), isAdmin: true });
    return { t, token: (await login(t.app, 'alice')).access };
}

let telegram: FakeTelegram;
let discord: Receiver;
let slack: Receiver;
let pagerduty: Receiver;
let hook: Receiver;
let smtp: FakeSmtp;
let linked: Admin;
let unlinked: Admin;

beforeAll(async () => {
    telegram = await startFakeTelegram();
    discord = await startReceiver(answers.discordOk);
    slack = await startReceiver(answers.slackOk);
    pagerduty = await startReceiver(answers.pagerdutyAccepted());
    hook = await startReceiver({ status: 204 });
    smtp = await startSmtp();
    const fakes = { telegramApiUrl: telegram.url, pagerdutyEventsUrl: pagerduty.url };
    linked = await companyAdmin({ publicUrl: 'https://monitor.example.com', ...fakes });
    unlinked = await companyAdmin(fakes);
});
afterAll(async () => {
    await linked?.t.close();
    await unlinked?.t.close();
    await telegram?.close();
    for (const r of [discord, slack, pagerduty, hook]) await r?.close();
    await smtp?.close();
});

const INCIDENT = '0f1e2d3c-0000-4000-8000-00000000abcd';
const subject = {
    id: 42,
    name: 'Block production',
    type: 'blockCheck',
    configuration: { id: 1, name: 'Hub', chain: 'cosmoshub' },
    server: { id: 3, name: 'validator-1' },
};
const facts = (kind: NotificationFacts['kind'], incidentId = INCIDENT): NotificationFacts => ({
    kind,
    incidentId,
    since: Date.now() - 60_000,
    message: 'No new block for 60 s',
    ...(kind === 'recovery' ? { durationMs: 60_000 } : {}),
});

/** The six channel types of a company, each pointed at its fake receiver. */
async function channels(w: Admin): Promise<number[]> {
    const settings: [string, object][] = [
        ['telegram', { bot_token: '123456:AAbbCCdd', chat_id: '-1001' }],
        ['discord', { webhook_url: `${discord.url}/api/webhooks/1/token` }],
        ['slack', { webhook_url: `${slack.url}/services/T/B/x` }],
        ['pagerduty', { routing_key: 'R0UT1NGKEYR0UT1NGKEYR0UT1NGKEY32' }],
        ['webhook', { url: `${hook.url}/hook`, secret: 'whsec-public-url' }],
        ['email', { host: '127.0.0.1', port: smtp.port, security: 'none', from: 'a@example.com', to: 'o@example.com' }],
    ];
    const ids: number[] = [];
    for (const [type, config] of settings) {
        const res = await w.t.app.inject({
            method: 'POST',
            url: '/api/notification-channels',
            headers: auth(w.token),
            payload: { name: type, type, configuration_object: JSON.stringify(config), is_enabled: true },
        });
        expect(res.statusCode, res.body).toBe(201);
        ids.push(res.json().id);
    }
    return ids;
}

/** Queues one notification for every channel and delivers it. */
async function send(w: Admin, ids: number[], f: NotificationFacts): Promise<void> {
    const record = toRecord(subject, f, Date.now());
    await w.t.app.ctx.db.insert(outbox).values(
        ids.map((channelId) => ({
            channelId,
            kind: f.kind,
            incidentId: f.incidentId,
            text: f.kind,
            payload: JSON.stringify(record),
        }))
    );
    const dispatcher = new OutboxDispatcher(w.t.app.ctx, w.t.app.log, 60_000);
    expect(await dispatcher.deliverDue()).toBe(ids.length);
}

const last = <T>(list: T[]): T => {
    const item = list.at(-1);
    if (item === undefined) throw new Error('nothing received');
    return item;
};
/** The mail's text and HTML parts, quoted-printable soft breaks and `=3D` undone. */
const mailBody = () =>
    last(smtp.mails)
        .raw.replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');

/** What each channel's wire carried about the link in the last message. */
function links() {
    const embed = (last(discord.received).json as { embeds: { url?: string; description: string }[] }).embeds[0];
    const blocks = (last(slack.received).json as { blocks: { text: { text: string } }[] }).blocks;
    return {
        telegram: last(telegram.sent).text,
        discordUrl: embed?.url,
        discordText: embed?.description,
        slack: blocks.map((b) => b.text.text).join('\n'),
        pagerduty: (last(pagerduty.received).json as { links?: unknown }).links,
        webhook: (last(hook.received).json as { url?: string }).url,
        mail: mailBody(),
    };
}

it('links every ALERT, reminder and RECOVERED to its incident page on every channel', async () => {
    const w = linked;
    const ids = await channels(w);
    const page = `https://monitor.example.com/incidents/${INCIDENT}`;
    for (const kind of ['alert', 'reminder', 'recovery'] as const) {
        await send(w, ids, facts(kind));
        const l = links();
        expect(l.telegram, kind).toContain(`<a href="${page}">Open in Node Monitor</a>`);
        expect(l.discordUrl, kind).toBe(page);
        expect(l.discordText, kind).toContain(`[Open in Node Monitor](${page})`);
        expect(l.slack, kind).toContain(`<${page}|Open in Node Monitor>`);
        expect(l.webhook, kind).toBe(page);
        expect(l.mail, kind).toContain(`Open in Node Monitor: ${page}`);
        expect(l.mail, kind).toContain(`<a href="${page}">Open in Node Monitor</a>`);
    }
    // PagerDuty: the trigger carries the link; a reminder is not sent there, and the resolve has no links field.
    const events = pagerduty.received.map((r) => r.json as { event_action: string; links?: unknown });
    expect(events.map((e) => e.event_action)).toEqual(['trigger', 'resolve']);
    expect(events[0]?.links).toEqual([{ href: page, text: 'Open in Node Monitor' }]);

    // A warning has no incident page: it links the monitor's.
    await send(w, ids, facts('warning', 'warning-1'));
    expect(last(telegram.sent).text).toContain('<a href="https://monitor.example.com/monitor/42">');
    expect(links().webhook).toBe('https://monitor.example.com/monitor/42');
});

it('links nothing without PUBLIC_URL', async () => {
    const w = unlinked;
    const ids = await channels(w);
    await send(w, ids, facts('alert', '7a6b5c4d-0000-4000-8000-000000000001'));
    const l = links();
    expect(l.telegram).not.toContain('<a href');
    expect(l.discordUrl).toBeUndefined();
    expect(l.slack).not.toContain('Open in Node Monitor');
    expect(l.pagerduty).toBeUndefined();
    expect(l.webhook).toBeUndefined();
    expect(l.mail).not.toContain('Open in Node Monitor');
});
