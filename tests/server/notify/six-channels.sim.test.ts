import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { monitors } from '../../../server/db/schema';
import type { ChainSim } from '../../../tools/chain-sim';
import { startChainSim } from '../../../tools/chain-sim';
import type { FakeSmtp, Receiver } from '../../support/fake-receivers';
import { answers, startReceiver, startSmtp } from '../../support/fake-receivers';
import type { FakeTelegram } from '../../support/fake-telegram';
import { startFakeTelegram } from '../../support/fake-telegram';
import { createWorld, type World } from '../config-fixtures';
import { seedNode, waitFor } from '../seed';

/**
 * A node halts → one alert → it recovers → one recovery, with its configuration linked to all six channel types at
 * once (and to a Discord webhook that was deleted, which fails for good and must hold up no other, and to a Slack
 * channel whose link leaves out recoveries).
 */

let sim: ChainSim;
let telegram: FakeTelegram;
let discord: Receiver;
let deadDiscord: Receiver;
let slack: Receiver;
let quietSlack: Receiver;
let pagerduty: Receiver;
let hook: Receiver;
let smtp: FakeSmtp;
let w: World;

beforeAll(async () => {
    sim = await startChainSim({ blockTimeMs: 200 });
    telegram = await startFakeTelegram();
    discord = await startReceiver(answers.discordOk);
    deadDiscord = await startReceiver(answers.discordUnknownWebhook);
    slack = await startReceiver(answers.slackOk);
    quietSlack = await startReceiver(answers.slackOk);
    pagerduty = await startReceiver(answers.pagerdutyAccepted());
    hook = await startReceiver({ status: 204 });
    smtp = await startSmtp();
});
afterAll(async () => {
    await w?.t.close();
    await sim?.close();
    await telegram?.close();
    for (const r of [discord, deadDiscord, slack, quietSlack, pagerduty, hook]) await r?.close();
    await smtp?.close();
});

const SECRET = 'whsec-scenario-secret';

it('halt → one alert per channel → recovery → one recovery per channel; a dead channel holds up none', {
    timeout: 120_000,
}, async () => {
    w = await createWorld({ engineEnabled: true, telegramApiUrl: telegram.url, pagerdutyEventsUrl: pagerduty.url });
    const node = sim.nodes[0];
    if (!node) throw new Error('no node');
    const { monitorId, configurationId } = await seedNode(w.t.app, {
        companyId: w.acme,
        services: [{ type: 'rpc', address: node.rpcUrl }],
        monitor: {
            type: 'blockCheck',
            name: 'Block production',
            settings: {
                miss_tolerance: 2,
                miss_tolerance_period_seconds: 3,
                sleep_duration_seconds: 1,
                alert_sleep_duration_minutes: 60,
            },
        },
        telegram: { chatId: '-1006' },
    });
    const channels: [string, object, object?][] = [
        ['discord', { webhook_url: `${deadDiscord.url}/api/webhooks/1/deleted` }],
        ['discord', { webhook_url: `${discord.url}/api/webhooks/2/live` }],
        ['slack', { webhook_url: `${slack.url}/services/T/B/x` }],
        ['slack', { webhook_url: `${quietSlack.url}/services/T/B/q` }, { send_recoveries: false }],
        ['pagerduty', { routing_key: 'R0UT1NGKEYR0UT1NGKEYR0UT1NGKEY32' }],
        ['webhook', { url: `${hook.url}/hook`, secret: SECRET }],
        [
            'email',
            { host: '127.0.0.1', port: smtp.port, security: 'none', from: 'alerts@example.com', to: 'ops@example.com' },
        ],
    ];
    for (const [i, [type, config, routing]] of channels.entries()) {
        const created = await w.call('POST', '/api/notification-channels', w.admin.access, {
            name: `${type} ${i}`,
            type,
            configuration_object: JSON.stringify(config),
            is_enabled: true,
        });
        expect(created.statusCode).toBe(201);
        const linked = await w.call(
            'POST',
            `/api/configurations/${configurationId}/notification-channels`,
            w.admin.access,
            { notification_channel_id: created.json().id, ...routing }
        );
        expect(linked.statusCode).toBe(201);
    }
    const row = async () => (await w.t.app.ctx.db.select().from(monitors).where(eq(monitors.id, monitorId)))[0];
    await waitFor('a first healthy check', async () => (await row())?.lastCheck && (await row())?.status, 30_000);

    sim.control.halt(0);
    const alerted = () =>
        telegram.sent.length >= 1 &&
        [discord, slack, quietSlack, pagerduty, hook].every((r) => r.received.length >= 1) &&
        smtp.mails.length >= 1;
    await waitFor('the alert on every channel', alerted, 60_000);
    // The deleted webhook was tried and refused for good, and held up none of the others.
    expect(deadDiscord.received.length).toBeGreaterThanOrEqual(1);

    sim.control.resume(0);
    const recovered = () =>
        telegram.sent.length >= 2 &&
        [discord, slack, pagerduty, hook].every((r) => r.received.length >= 2) &&
        smtp.mails.length >= 2;
    await waitFor('the recovery on every channel', recovered, 60_000);
    // Nothing more follows.
    await new Promise((r) => setTimeout(r, 2500));

    expect(telegram.sent.map((m) => m.text.split('\n', 1)[0])).toEqual([
        '🔴 <b>ALERT</b> Block production',
        '✅ <b>RECOVERED</b> Block production',
    ]);
    const titles = (r: Receiver) => r.received.map((x) => (x.json as { embeds: { title: string }[] }).embeds[0]?.title);
    expect(titles(discord)).toEqual(['[ALERT] Block production', '[RECOVERED] Block production']);
    const headers = (r: Receiver) =>
        r.received.map((x) => (x.json as { blocks: { text: { text: string } }[] }).blocks[0]?.text.text);
    expect(headers(slack)).toEqual(['[ALERT] Block production', '[RECOVERED] Block production']);
    expect(headers(quietSlack)).toEqual(['[ALERT] Block production']);

    const events = pagerduty.received.map((x) => x.json as { event_action: string; dedup_key: string });
    expect(events.map((e) => e.event_action)).toEqual(['trigger', 'resolve']);
    expect(events[0]?.dedup_key).toBeTruthy();
    expect(events[1]?.dedup_key).toBe(events[0]?.dedup_key);
    expect(pagerduty.received[0]?.json).toMatchObject({
        payload: {
            severity: 'critical',
            source: 'validator-1',
            custom_details: { configuration: 'Sim mainnet', chain: 'cosmoshub' },
        },
    });

    const bodies = hook.received.map((x) => x.json as { kind: string; incident_id: string; duration_seconds: number });
    expect(bodies.map((b) => b.kind)).toEqual(['alert', 'recovery']);
    expect(bodies[1]?.incident_id).toBe(bodies[0]?.incident_id);
    expect(bodies[0]?.incident_id).toBe(events[0]?.dedup_key);
    expect(typeof bodies[1]?.duration_seconds).toBe('number');
    for (const got of hook.received) {
        const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(got.headers['x-node-monitor-signature'])) ?? [];
        const mac = (secret: string) => createHmac('sha256', secret).update(`${t}.${got.raw}`).digest('hex');
        expect(v1).toBe(mac(SECRET));
        expect(v1).not.toBe(mac(`${SECRET}x`));
    }

    const subjects = smtp.mails.map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1]);
    expect(subjects).toEqual(['[ALERT] Block production', '[RECOVERED] Block production']);
});
