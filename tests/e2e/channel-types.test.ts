import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { ChannelType } from '../../common/channel-types';
import { answers, type FakeSmtp, type Receiver, startReceiver, startSmtp } from '../support/fake-receivers';
import { type FakeTelegram, startFakeTelegram, unauthorized } from '../support/fake-telegram';
import type { Console } from './harness';
import { ADMIN_PASSWORD, api, openBrowser, signIn, startConsole } from './harness';

/**
 * Notification channels in the browser, for every channel type: an admin adds the channel through the dialog built from
 * the catalogue, tests it against a refusing receiver (its own error text shows) and a working one (the test message
 * arrives), saves it (the secret reads back masked), and links it to a configuration sending warnings too. One server,
 * one browser and one set of loopback receivers serve all six.
 */
let server: Console;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let telegram: FakeTelegram;
let discord: Receiver;
let slack: Receiver;
let pagerduty: Receiver;
let hook: Receiver;
let smtp: FakeSmtp;
let configurationId = 0;

const PASSWORD = 'channel-admin-password';
const DISCORD_TOKEN = 'dIsCoRdToKeN-browser';
const ROUTING_KEY = 'R0UT1NGKEYR0UT1NGKEYR0UT1NGKEY32';

beforeAll(async () => {
    telegram = await startFakeTelegram();
    discord = await startReceiver(answers.discordOk);
    slack = await startReceiver(answers.slackOk);
    pagerduty = await startReceiver(answers.pagerdutyAccepted());
    hook = await startReceiver({ status: 204 });
    smtp = await startSmtp();
    server = await startConsole({
        ENGINE_ENABLED: 'false',
        TELEGRAM_API_URL: telegram.url,
        PAGERDUTY_EVENTS_URL: pagerduty.url,
    });
    const root = await api(server.url, 'admin', ADMIN_PASSWORD);
    const company = await root('POST', '/companies', {
        name: 'Channels Co',
        is_active: true,
        // Every receiver listens on loopback.
        allowed_networks: ['127.0.0.0/8'],
    });
    // Channel tests are limited to 5 a minute per user: each type is added by its own admin.
    for (const type of CASES.map((c) => c.type)) {
        await root('POST', '/users', {
            username: `${type}-admin`,
            is_active: true,
            is_admin: true,
            is_super_admin: false,
            company_id: company.id,
            raw_password: PASSWORD,
        });
    }
    const admin = await api(server.url, 'telegram-admin', PASSWORD);
    configurationId = (await admin('POST', '/configurations', { name: 'Hub validator', chain: 'cosmoshub' })).id;
    browser = await openBrowser();
    page = browser.page;
});
afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await telegram?.close();
    for (const r of [discord, slack, pagerduty, hook]) await r?.close();
    await smtp?.close();
});

const toast = (text: string) => page.getByText(text, { exact: true }).first().waitFor();
const dialog = () => page.getByRole('dialog');
const field = (label: string) => dialog().getByRole('textbox', { name: label, exact: true });

interface Case {
    type: ChannelType;
    name: string;
    /** Text inputs by label, in order. */
    fields: [label: string, value: string][];
    /** Select inputs by label: the option to pick. */
    selects?: [label: string, option: string][];
    /** The secret setting, which reads back masked. */
    secret: { label: string; value: string };
    /** Makes the receiver refuse the next message; the UI shows `refusal`. */
    refuse(): void;
    /** Undoes a refusal that is not for one message only. */
    accept?(): void;
    refusal: string;
    /** How many messages the receiver got so far. */
    arrived(): number;
    /** Checks the last test message the receiver accepted. */
    check(): void;
    /** Type-specific steps in the open dialog, before its settings are filled in. */
    before?(): Promise<void>;
}

const CASES: Case[] = [
    {
        type: 'telegram',
        name: 'Ops chat',
        fields: [
            ['Bot Token', '123456:ABCdefGhIJKlmNoPQRstuVWXyz'],
            ['Chat ID', '-1001234567890'],
        ],
        secret: { label: 'Bot Token', value: '123456:ABCdefGhIJKlmNoPQRstuVWXyz' },
        refuse: () => telegram.script.push(unauthorized),
        refusal: 'Unauthorized',
        arrived: () => telegram.sent.length,
        check: () => {
            expect(telegram.sent.at(-1)).toMatchObject({
                token: '123456:ABCdefGhIJKlmNoPQRstuVWXyz',
                chat_id: '-1001234567890',
                parse_mode: 'HTML',
                text: '<b>Node Monitor</b>: test message for notification channel "Ops chat". Alerts will arrive here.',
            });
        },
    },
    {
        type: 'discord',
        name: 'Ops Discord',
        fields: [['Webhook URL', '']],
        secret: { label: 'Webhook URL', value: DISCORD_TOKEN },
        refuse: () => discord.script.push(answers.discordUnknownWebhook),
        refusal: 'Discord: Unknown Webhook',
        arrived: () => discord.received.length,
        check: () => {
            const got = discord.received.at(-1);
            expect(got?.path).toBe(`/api/webhooks/123456789012345678/${DISCORD_TOKEN}`);
            expect(got?.json).toMatchObject({ embeds: [{ title: '[TEST] Node Monitor' }] });
        },
    },
    {
        type: 'slack',
        name: 'Ops Slack',
        fields: [['Webhook URL', '']],
        secret: { label: 'Webhook URL', value: 'slacksecretXYZ' },
        refuse: () => slack.script.push(answers.slackNoService),
        refusal: 'Slack: no_service',
        arrived: () => slack.received.length,
        check: () => {
            const got = slack.received.at(-1);
            expect(got?.path).toBe('/services/T000/B000/slacksecretXYZ');
            expect(got?.json).toMatchObject({ text: expect.stringContaining('[TEST] Node Monitor') });
        },
    },
    {
        type: 'pagerduty',
        name: 'On-call',
        fields: [
            ['Routing Key', ROUTING_KEY],
            ['Severity Map', '{"warning": "info"}'],
        ],
        secret: { label: 'Routing Key', value: ROUTING_KEY },
        refuse: () => pagerduty.script.push(answers.pagerdutyInvalid),
        refusal: "PagerDuty: Event object is invalid (Length of 'routing_key' is incorrect (should be 32 characters))",
        arrived: () => pagerduty.received.length,
        check: () => {
            const got = pagerduty.received.at(-1);
            expect(got?.path).toBe('/v2/enqueue');
            expect(got?.json).toMatchObject({
                routing_key: ROUTING_KEY,
                event_action: 'trigger',
                payload: { severity: 'info', source: 'Node Monitor' },
            });
        },
    },
    {
        type: 'webhook',
        name: 'Ops hook',
        fields: [
            ['URL', ''],
            ['Secret', 'browser-secret'],
            ['Headers', '{"X-Team": "ops"}'],
        ],
        secret: { label: 'Secret', value: 'browser-secret' },
        refuse: () => hook.script.push({ status: 403, body: 'signature rejected' }),
        refusal: 'The webhook answered HTTP 403',
        arrived: () => hook.received.length,
        check: () => {
            const got = hook.received.at(-1);
            expect(got?.json).toMatchObject({
                version: 1,
                kind: 'test',
                message: 'Test message for notification channel "Ops hook"',
            });
            expect(got?.headers['x-team']).toBe('ops');
            const sig = String(got?.headers['x-node-monitor-signature']);
            const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(sig) ?? [];
            expect(v1).toBe(createHmac('sha256', 'browser-secret').update(`${t}.${got?.raw}`).digest('hex'));
        },
        // A URL that is not http(s): the API's 400 shows under the field.
        before: async () => {
            await field('URL').fill('ftp://127.0.0.1/in');
            await field('Secret').fill('browser-secret');
            await dialog().getByRole('button', { name: 'Add' }).click();
            // Under the field (the dialog's own error line above its buttons says it too).
            await dialog().locator('.MuiFormHelperText-root', { hasText: 'URL must be an http(s) URL' }).waitFor();
        },
    },
    {
        type: 'email',
        name: 'Ops mail',
        fields: [
            ['SMTP Host', '127.0.0.1'],
            ['Port', ''],
            ['Username', 'mailer'],
            ['Password', 'smtp-pass-secret'],
            ['From', 'Node Monitor <alerts@example.com>'],
            ['To', 'ops@example.com, oncall@example.com'],
        ],
        selects: [['Security', 'none']],
        secret: { label: 'Password', value: 'smtp-pass-secret' },
        refuse: () => {
            smtp.refuseRecipients = 'No such user here';
        },
        accept: () => {
            smtp.refuseRecipients = undefined;
        },
        refusal: 'The SMTP server answered 550: it refused the mailbox (unknown or not allowed)',
        arrived: () => smtp.mails.length,
        check: () => {
            const mail = smtp.mails.at(-1);
            expect(mail?.to).toEqual(['ops@example.com', 'oncall@example.com']);
            expect(mail?.raw).toMatch(/^Subject: \[TEST\] Node Monitor$/m);
            expect(smtp.logins.at(-1)).toEqual({ username: 'mailer', password: 'smtp-pass-secret' });
        },
    },
];

/** Values that depend on the receivers' ports, known once they listen. */
const value = (c: Case, label: string, given: string) => {
    if (given) return given;
    if (c.type === 'discord') return `${discord.url}/api/webhooks/123456789012345678/${DISCORD_TOKEN}`;
    if (c.type === 'slack') return `${slack.url}/services/T000/B000/slacksecretXYZ`;
    if (c.type === 'webhook') return `${hook.url}/in`;
    if (label === 'Port') return String(smtp.port);
    throw new Error(`no value for ${label}`);
};

it.each(CASES)(
    '$type: added from the dialog, tested, saved with its secret masked, linked with warnings',
    async (c) => {
        // Signed out: the session lives in localStorage.
        if (page.url().startsWith(server.url)) await page.evaluate(() => localStorage.clear());
        await signIn(page, server.url, `${c.type}-admin`, PASSWORD);

        await page.goto(`${server.url}/notification-channels`);
        await page.getByRole('button', { name: 'Add Channel' }).click();
        await field('Name').fill(c.name);
        await dialog().getByRole('combobox', { name: 'Type' }).click();
        await page.getByRole('option', { name: c.type, exact: true }).click();
        await c.before?.();
        for (const [label, given] of c.fields) await field(label).fill(value(c, label, given));
        for (const [label, option] of c.selects ?? []) {
            await dialog().getByRole('combobox', { name: label }).click();
            await page.getByRole('option', { name: option, exact: true }).click();
        }

        // The destination refuses: its own words show.
        c.refuse();
        await dialog().getByRole('button', { name: 'Test' }).click();
        await toast(`Failed to test notification channel! ${c.refusal}`);
        c.accept?.();
        // It accepts: the test message arrives in the type's own format.
        const before = c.arrived();
        await dialog().getByRole('button', { name: 'Test' }).click();
        await toast('Notification channel tested successfully!');
        expect(c.arrived()).toBe(before + 1);
        c.check();

        await dialog().getByRole('button', { name: 'Add' }).click();
        await toast('Notification channel added successfully!');
        await page.getByRole('button', { name: `Edit channel ${c.name}` }).click();
        const masked = await field(c.secret.label).inputValue();
        expect(masked).toMatch(/^••••/);
        expect(masked).not.toContain(c.secret.value);
        await dialog().getByRole('button', { name: 'Cancel' }).click();

        await page.goto(`${server.url}/configurations/${configurationId}`);
        await page.getByRole('combobox', { name: 'Notification Channels' }).click();
        await page.getByRole('option', { name: `${c.name} (${c.type})` }).click();
        await page.getByRole('button', { name: 'Add Channel' }).click();
        await toast('Successfully associated notification channel');
        const row = page
            .getByRole('table', { name: 'Linked notification channels' })
            .getByRole('row', { name: c.name });
        await row.getByRole('combobox', { name: /^Sends/ }).click();
        await page.getByRole('option', { name: 'Errors and warnings' }).click();
        await toast('Notification channel routing saved');
        await row.getByText('Errors and warnings').waitFor();

        const admin = await api(server.url, `${c.type}-admin`, PASSWORD);
        const links = await admin<{ min_severity?: string; notification_channel: { name: string; type: string } }[]>(
            'GET',
            `/configurations/${configurationId}/notification-channels`
        );
        expect(links.find((l) => l.notification_channel.name === c.name)).toMatchObject({
            min_severity: 'warning',
            notification_channel: { type: c.type },
        });
    }
);
