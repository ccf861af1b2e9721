import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { MonitorType } from '../../../common/monitor-types';
import { escalateDue } from '../../../server/incidents/sweeper';
import { telegramActions } from '../../../server/incidents/telegram-actions';
import {
    configurationChannels,
    configurations,
    incidents as incidentRows,
    monitors,
    notificationChannels,
    outbox,
    servers,
} from '../../../server/db/schema';
import { actionKey, verifyButton } from '../../../server/notify/telegram/callback-data';
import { ResultWriter } from '../../../server/engine/results';
import type { MonitorTarget } from '../../../server/engine/targets';
import { INITIAL_ALERT_STATE, type Notification } from '../../../server/engine/transitions';
import { OutboxDispatcher } from '../../../server/notify/outbox';
import { HOLD_CAP_MS } from '../../../server/notify/server-hold';
import type { FakeSmtp, Receiver } from '../../support/fake-receivers';
import { answers, startReceiver, startSmtp } from '../../support/fake-receivers';
import type { FakeTelegram } from '../../support/fake-telegram';
import { startFakeTelegram } from '../../support/fake-telegram';
import { createWorld, type World } from '../config-fixtures';

/**
 * A whole server down: every monitor on it fails within one check interval, and each of the six channel types gets
 * one SERVER DOWN naming the server and its monitors (the per-monitor rows stay recorded, each incident opened), and
 * one SERVER UP when they are back; PagerDuty opens and resolves one page. One monitor failing while another of the
 * server is seen healthy is the usual ALERT, sent without waiting for the window.
 */

let telegram: FakeTelegram;
let discord: Receiver;
let slack: Receiver;
let pagerduty: Receiver;
let hook: Receiver;
let smtp: FakeSmtp;
let w: World;
let clock = 0;
const dispatchers: OutboxDispatcher[] = [];

beforeAll(async () => {
    telegram = await startFakeTelegram();
    discord = await startReceiver(answers.discordOk);
    slack = await startReceiver(answers.slackOk);
    pagerduty = await startReceiver(answers.pagerdutyAccepted());
    hook = await startReceiver({ status: 204 });
    smtp = await startSmtp();
    w = await createWorld({ telegramApiUrl: telegram.url, pagerdutyEventsUrl: pagerduty.url });
});
afterAll(async () => {
    for (const d of dispatchers) await d.stop();
    await w?.t.close();
    await telegram?.close();
    for (const r of [discord, slack, pagerduty, hook]) await r?.close();
    await smtp?.close();
});
beforeEach(() => {
    telegram.sent.length = 0;
    for (const r of [discord, slack, pagerduty, hook]) r.received.length = 0;
    smtp.mails.length = 0;
    clock = Date.now();
});

interface Node {
    configurationId: number;
    serverId: number;
    targets: MonitorTarget[];
}

const MONITORS: [string, MonitorType, object][] = [
    ['RPC', 'urlCheck', { address: 'http://127.0.0.1:9/status' }],
    ['Block height', 'blockCheck', { sleep_duration_seconds: 10 }],
    ['Disk', 'nodeExporterDiskSpace', { check_interval_seconds: 60 }],
];

/** A configuration linked to one channel of each type, with a server of three monitors. */
async function node(server: string): Promise<Node> {
    const db = w.t.app.ctx.db;
    const [cfg] = await db
        .insert(configurations)
        .values({ companyId: w.acme, name: `Mainnet ${server}`, chain: 'cosmoshub' })
        .returning();
    const [srv] = await db
        .insert(servers)
        .values({ configurationId: cfg?.id ?? 0, name: server, address: 'http://127.0.0.1' })
        .returning();
    if (!cfg || !srv) throw new Error('no configuration');
    const targets: MonitorTarget[] = [];
    for (const [name, type, settings] of MONITORS) {
        const [m] = await db
            .insert(monitors)
            .values({
                configurationId: cfg.id,
                serverId: srv.id,
                name,
                type,
                configurationObject: JSON.stringify(settings),
            })
            .returning();
        targets.push({
            id: m?.id ?? 0,
            name,
            type,
            settings: settings as Record<string, unknown>,
            key: '',
            configuration: { id: cfg.id, name: cfg.name, chain: 'cosmoshub', companyId: w.acme },
            server: { id: srv.id, name: srv.name, address: srv.address },
            services: [],
        });
    }
    const channels: [string, object][] = [
        ['telegram', { bot_token: '123456:TEST-token', chat_id: `-100${srv.id}` }],
        ['discord', { webhook_url: `${discord.url}/api/webhooks/${srv.id}/live` }],
        ['slack', { webhook_url: `${slack.url}/services/T/B/${srv.id}` }],
        ['pagerduty', { routing_key: 'R0UT1NGKEYR0UT1NGKEYR0UT1NGKEY32' }],
        ['webhook', { url: `${hook.url}/hook`, secret: 'whsec-server-down' }],
        [
            'email',
            { host: '127.0.0.1', port: smtp.port, security: 'none', from: 'alerts@example.com', to: 'ops@example.com' },
        ],
    ];
    for (const [type, config] of channels) {
        const created = await w.call('POST', '/api/notification-channels', w.admin.access, {
            name: `${type} for ${server}`,
            type,
            configuration_object: JSON.stringify(config),
            is_enabled: true,
        });
        expect(created.statusCode).toBe(201);
        const linked = await w.call('POST', `/api/configurations/${cfg.id}/notification-channels`, w.admin.access, {
            notification_channel_id: created.json().id,
        });
        expect(linked.statusCode).toBe(201);
    }
    return { configurationId: cfg.id, serverId: srv.id, targets };
}

const writer = () => new ResultWriter(w.t.app.ctx.db, w.t.app.log);
const incidents = new Map<number, { id: string; since: number }>();

/** The engine saving a check of `target` at the test clock: healthy, or failing with its alert or recovery. */
async function check(
    target: MonitorTarget,
    outcome: 'ok' | 'alert' | 'reminder' | 'recovery' | 'failing'
): Promise<void> {
    const at = clock;
    let notification: Notification | null = null;
    if (outcome === 'reminder') {
        const incident = incidents.get(target.id);
        if (!incident) throw new Error('no incident to remind of');
        notification = {
            kind: 'reminder',
            incidentId: incident.id,
            since: incident.since,
            message: `${target.name} does not answer`,
        };
    } else if (outcome === 'alert') {
        const incident = { id: randomUUID(), since: at };
        incidents.set(target.id, incident);
        notification = { kind: 'alert', incidentId: incident.id, since: at, message: `${target.name} does not answer` };
    } else if (outcome === 'recovery') {
        const incident = incidents.get(target.id);
        if (!incident) throw new Error('no incident to recover');
        notification = {
            kind: 'recovery',
            incidentId: incident.id,
            since: incident.since,
            durationMs: at - incident.since,
            message: null,
        };
    }
    const failing = outcome === 'alert' || outcome === 'reminder' || outcome === 'failing';
    const r = writer();
    r.record({
        target,
        status: !failing,
        lastError: failing ? `${target.name} does not answer` : null,
        checkedAt: new Date(at),
        state: { alert: INITIAL_ALERT_STATE, memory: null },
        transition: { state: INITIAL_ALERT_STATE, notification, change: null },
    });
    await r.flush(true);
}

function dispatcher(): OutboxDispatcher {
    // Seconds ahead of the checks, so that rows queued just now at the database's clock are due.
    const d = new OutboxDispatcher(w.t.app.ctx, w.t.app.log, 60_000, { now: () => clock + 5000 });
    dispatchers.push(d);
    return d;
}

/** A mail's Subject header, unfolded and its encoded words (RFC 2047, Q encoding) decoded. */
function subject(raw: string): string {
    const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? '';
    return header.replace(/\?=\s+=\?/g, '?==?').replace(/=\?UTF-8\?Q\?(.*?)\?=/gi, (_, q: string) =>
        Buffer.from(
            q
                .replace(/_/g, ' ')
                .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
            'latin1'
        ).toString('utf8')
    );
}

const firstLines = () => telegram.sent.map((m) => m.text.split('\n', 1)[0]);
const received = () => ({
    telegram: telegram.sent.length,
    discord: discord.received.length,
    slack: slack.received.length,
    pagerduty: pagerduty.received.length,
    webhook: hook.received.length,
    email: smtp.mails.length,
});
const each = (n: number) => ({ telegram: n, discord: n, slack: n, pagerduty: n, webhook: n, email: n });

it('three monitors of a server failing: one SERVER DOWN per channel, then one SERVER UP; one PagerDuty page', async () => {
    const { serverId, targets } = await node('validator-1');
    const [rpc, block, disk] = targets as [MonitorTarget, MonitorTarget, MonitorTarget];
    const d = dispatcher();
    for (const t of targets) await check(t, 'ok');

    clock += 20_000;
    await check(rpc, 'alert');
    await d.deliverDue();
    // Its siblings have not been checked since: nobody is told yet.
    expect(received()).toEqual(each(0));

    clock += 10_000;
    await check(block, 'alert');
    clock += 25_000;
    await check(disk, 'alert');
    await d.deliverDue();
    expect(received()).toEqual(each(1));

    const text = telegram.sent[0]?.text ?? '';
    expect(text.split('\n')).toEqual([
        '🔴 <b>SERVER DOWN</b> validator-1 — 3 monitors failing: RPC, Block height, Disk',
        'Configuration: Mainnet validator-1 (cosmoshub)',
        'RPC (urlCheck): RPC does not answer',
        'Block height (blockCheck): Block height does not answer',
        'Disk (nodeExporterDiskSpace): Disk does not answer',
        expect.stringMatching(/^Since: \d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)? UTC$/),
        expect.stringMatching(/^<i>Incidents [0-9a-f]{8}, [0-9a-f]{8}, [0-9a-f]{8}<\/i>$/),
    ]);
    const title = '[SERVER DOWN] validator-1 — 3 monitors failing: RPC, Block height, Disk';
    const embed = discord.received[0]?.json as { embeds: { title: string }[] } | undefined;
    expect(embed?.embeds[0]?.title).toBe(title);
    const blocks = slack.received[0]?.json as { blocks: { text: { text: string } }[] } | undefined;
    expect(blocks?.blocks[0]?.text.text).toBe(title);
    expect(subject(smtp.mails[0]?.raw ?? '')).toBe(title);
    const page = pagerduty.received[0]?.json as { event_action: string; dedup_key: string; payload: object };
    expect(page).toMatchObject({ event_action: 'trigger', payload: { summary: title, source: 'validator-1' } });
    expect(page.dedup_key).toBe(`server/${serverId}/${incidents.get(rpc.id)?.id}`);
    expect(hook.received[0]?.json).toMatchObject({
        kind: 'server_down',
        server: { id: serverId, name: 'validator-1' },
        monitor: null,
        monitors: targets.map((t) => ({ id: t.id, name: t.name, incident_id: incidents.get(t.id)?.id })),
    });

    // Each monitor's alert stays recorded, one row per channel, all delivered by the one message; each has its incident.
    const rows = await w.t.app.ctx.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.kind, 'alert'), eq(outbox.groupKey, page.dedup_key)))
        .orderBy(asc(outbox.id));
    expect(rows).toHaveLength(18);
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
    expect(new Set(rows.map((r) => r.incidentId))).toEqual(new Set(targets.map((t) => incidents.get(t.id)?.id)));

    clock += 60_000;
    for (const t of [disk, rpc, block]) await check(t, 'recovery');
    await d.deliverDue();
    expect(received()).toEqual(each(2));
    expect(firstLines()[1]).toBe('✅ <b>SERVER UP</b> validator-1 — 3 monitors recovered: Disk, RPC, Block height');
    expect(telegram.sent[1]?.text).toContain('Was down for 1 min, since');
    expect(pagerduty.received[1]?.json).toEqual({
        event_action: 'resolve',
        dedup_key: page.dedup_key,
        routing_key: 'R0UT1NGKEYR0UT1NGKEYR0UT1NGKEY32',
    });
    expect(hook.received[1]?.json).toMatchObject({ kind: 'server_up', server: { id: serverId } });
});

it('Acknowledge under a SERVER DOWN acknowledges each of its incidents; Silence 1 h silences the server', async () => {
    const { serverId, targets } = await node('validator-5');
    const db = w.t.app.ctx.db;
    const d = dispatcher();
    for (const t of targets) await check(t, 'ok');
    clock += 20_000;
    for (const t of targets) await check(t, 'alert');
    await d.deliverDue();
    expect(firstLines()).toEqual(['🔴 <b>SERVER DOWN</b> validator-5 — 3 monitors failing: RPC, Block height, Disk']);
    const row = telegram.sent[0]?.reply_markup?.inline_keyboard[0] ?? [];
    expect(row.map((b) => b.text)).toEqual(['Acknowledge', 'Silence 1 h']);
    const first = incidents.get(targets[0]?.id ?? 0)?.id ?? '';
    const key = actionKey(w.t.app.ctx.config.appSecret);
    expect(row.map((b) => verifyButton(key, `-100${serverId}`, b.callback_data, Date.now()))).toEqual(
        (['ack-server', 'silence-server'] as const).map((action) => ({
            ok: true,
            data: { action, incidentId: first, targetId: serverId, issuedAt: expect.any(Number) },
        }))
    );

    const actions = telegramActions(w.t.app.ctx);
    const channelOf = async (name: string) =>
        (
            await db
                .select({ id: notificationChannels.id })
                .from(notificationChannels)
                .where(eq(notificationChannels.name, name))
        )[0]?.id ?? 0;
    const by = { telegramUserId: 555, name: '@oncall_bob', channelId: await channelOf('telegram for validator-5') };
    const acknowledged = async () =>
        (await db.select().from(incidentRows).where(eq(incidentRows.serverId, serverId))).map((r) => r.acknowledgedBy);

    // Pressed in another company's channel, it finds none of these incidents.
    const foreign = await w.call('POST', '/api/notification-channels', w.other.access, {
        name: 'Their chat',
        type: 'telegram',
        configuration_object: JSON.stringify({ bot_token: '123456:OTHER-token', chat_id: '-100777' }),
        is_enabled: true,
    });
    expect(foreign.statusCode).toBe(201);
    for (const press of [
        actions.acknowledgeServer,
        (...a: [number, string, typeof by]) => actions.silenceServer(a[0], a[1], 60, a[2]),
    ])
        expect(await press(serverId, first, { ...by, channelId: foreign.json().id })).toEqual({
            done: false,
            text: 'Incident not found',
        });
    expect(await acknowledged()).toEqual([null, null, null]);

    expect(await actions.acknowledgeServer(serverId, first, by)).toEqual({
        done: true,
        text: 'Acknowledged 3 incidents of validator-5 by @oncall_bob. Reminders for them stop.',
    });
    expect(await acknowledged()).toEqual(['@oncall_bob', '@oncall_bob', '@oncall_bob']);
    expect(await actions.acknowledgeServer(serverId, first, by)).toEqual({
        done: true,
        text: 'Every open incident of this server is already acknowledged.',
    });

    const silenced = await actions.silenceServer(serverId, first, 60, by);
    expect(silenced).toEqual({
        done: true,
        text: expect.stringMatching(/^Silenced until \d\d:\d\d UTC by @oncall_bob\.$/),
    });
    const silences = (await w.call('GET', '/api/silences', w.admin.access)).json().results;
    expect(silences).toEqual([
        expect.objectContaining({ server_id: serverId, reason: 'Silenced from Telegram by @oncall_bob' }),
    ]);
    // Each channel is told once that the whole server was taken on.
    await d.deliverDue();
    expect(received()).toEqual(each(2));
    expect(telegram.sent[1]?.text.split('\n')).toEqual([
        '👀 <b>ACKNOWLEDGED</b> RPC',
        'Acknowledged by @oncall_bob (telegram): SERVER DOWN validator-5: RPC, Block height, Disk',
        expect.stringMatching(/^<i>Incident [0-9a-f]{8}<\/i>$/),
    ]);
    // PagerDuty paged the server under the group's key, and that page is the one acknowledged.
    expect(pagerduty.received[1]?.json).toEqual({
        event_action: 'acknowledge',
        dedup_key: `server/${serverId}/${first}`,
        routing_key: 'R0UT1NGKEYR0UT1NGKEYR0UT1NGKEY32',
    });

    // Once the server is back, the button of its outage changes nothing.
    clock += 60_000;
    for (const t of targets) await check(t, 'recovery');
    for (const press of [
        actions.acknowledgeServer,
        (...a: [number, string, typeof by]) => actions.silenceServer(a[0], a[1], 60, a[2]),
    ])
        expect(await press(serverId, first, by)).toEqual({
            done: true,
            text: 'This server is up again; nothing was changed.',
        });
    expect((await w.call('GET', '/api/silences', w.admin.access)).json().results).toHaveLength(1);
    await d.deliverDue();
});

it("a SERVER DOWN's Acknowledge takes on the incidents it named, while any of them is open", async () => {
    const { serverId, targets } = await node('validator-6');
    const [rpc, block, disk] = targets as [MonitorTarget, MonitorTarget, MonitorTarget];
    const d = dispatcher();
    for (const t of targets) await check(t, 'ok');
    // The RPC fails while the node still makes blocks: its own ALERT, with its own buttons.
    clock += 20_000;
    await check(rpc, 'alert');
    clock += 5_000;
    await check(block, 'ok');
    await d.deliverDue();
    expect(firstLines()).toEqual(['🔴 <b>ALERT</b> RPC']);
    // Then the rest of the server goes down: one SERVER DOWN for the two.
    clock += 20_000;
    await check(block, 'alert');
    clock += 10_000;
    await check(disk, 'alert');
    await d.deliverDue();
    expect(firstLines()[1]).toBe('🔴 <b>SERVER DOWN</b> validator-6 — 2 monitors failing: Block height, Disk');
    const blockIncident = incidents.get(block.id)?.id ?? '';
    const [channel] = await w.t.app.ctx.db
        .select({ id: notificationChannels.id })
        .from(notificationChannels)
        .where(eq(notificationChannels.name, 'telegram for validator-6'));
    const by = { telegramUserId: 555, name: '@oncall_bob', channelId: channel?.id ?? 0 };
    // The node makes blocks again while its disk is still unread: the outage is not over.
    clock += 30_000;
    await check(block, 'recovery');
    pagerduty.received.length = 0;
    expect(await telegramActions(w.t.app.ctx).acknowledgeServer(serverId, blockIncident, by)).toEqual({
        done: true,
        text: 'Acknowledged 1 incident of validator-6 by @oncall_bob. Reminders for them stop.',
    });
    const rows = await w.t.app.ctx.db.select().from(incidentRows).where(eq(incidentRows.serverId, serverId));
    const ackedBy = (t: MonitorTarget) => rows.find((r) => r.id === incidents.get(t.id)?.id)?.acknowledgedBy;
    expect([ackedBy(rpc), ackedBy(block), ackedBy(disk)]).toEqual([null, null, '@oncall_bob']);
    await d.deliverDue();
    // The page acknowledged is the SERVER DOWN's, not the RPC's own.
    expect(
        pagerduty.received
            .map((r) => r.json)
            .filter((e) => (e as { event_action: string }).event_action === 'acknowledge')
    ).toEqual([
        {
            event_action: 'acknowledge',
            dedup_key: `server/${serverId}/${blockIncident}`,
            routing_key: 'R0UT1NGKEYR0UT1NGKEYR0UT1NGKEY32',
        },
    ]);
    clock += 60_000;
    for (const t of [rpc, disk]) await check(t, 'recovery');
    await d.deliverDue();
});

it('one of three failing while another is seen healthy: the usual ALERT at once, not after the window', async () => {
    const { targets } = await node('validator-2');
    const [rpc, block] = targets as [MonitorTarget, MonitorTarget, MonitorTarget];
    const d = dispatcher();
    for (const t of targets) await check(t, 'ok');

    clock += 20_000;
    await check(block, 'alert');
    await d.deliverDue();
    expect(received()).toEqual(each(0));

    // 10 s later, far inside the window (the longest interval, 60 s, and 15 s): the RPC answers.
    clock += 10_000;
    await check(rpc, 'ok');
    await d.deliverDue();
    expect(received()).toEqual(each(1));
    expect(firstLines()).toEqual(['🔴 <b>ALERT</b> Block height']);
    expect(pagerduty.received[0]?.json).toMatchObject({
        event_action: 'trigger',
        dedup_key: incidents.get(block.id)?.id,
    });
    const rows = await w.t.app.ctx.db
        .select()
        .from(outbox)
        .where(eq(outbox.incidentId, incidents.get(block.id)?.id ?? ''));
    expect(rows.map((r) => [r.status, r.groupKey])).toEqual(rows.map(() => ['sent', null]));

    // Its recovery is its own, as always.
    clock += 30_000;
    await check(block, 'recovery');
    await d.deliverDue();
    expect(firstLines()).toEqual(['🔴 <b>ALERT</b> Block height', '✅ <b>RECOVERED</b> Block height']);
});

it('no sibling checked within the window: the alert goes out alone when it ends', async () => {
    const { targets } = await node('validator-3');
    const [rpc] = targets as [MonitorTarget, MonitorTarget, MonitorTarget];
    const d = dispatcher();

    await check(rpc, 'alert');
    clock += 69_000;
    await d.deliverDue();
    expect(received()).toEqual(each(0));
    clock += 1_000;
    await d.deliverDue();
    expect(received()).toEqual(each(1));
    expect(firstLines()).toEqual(['🔴 <b>ALERT</b> RPC']);
});

it('a monitor alone on its server is never held', async () => {
    const { targets } = await node('validator-4');
    const db = w.t.app.ctx.db;
    const [rpc, ...others] = targets as [MonitorTarget, MonitorTarget, MonitorTarget];
    for (const o of others) await db.update(monitors).set({ isEnabled: false }).where(eq(monitors.id, o.id));
    const d = dispatcher();
    clock = Date.now();

    await check(rpc, 'alert');
    await d.deliverDue();
    expect(received()).toEqual(each(1));
    expect(firstLines()).toEqual(['🔴 <b>ALERT</b> RPC']);
});

/** The three monitors of `targets` failing 10 s and 25 s apart, sent as one SERVER DOWN; the time of the first. */
async function serverDown(d: OutboxDispatcher, targets: MonitorTarget[], expected = each(1)): Promise<number> {
    for (const t of targets) await check(t, 'ok');
    clock += 20_000;
    const start = clock;
    const gaps = [0, 10_000, 25_000];
    for (const [i, t] of targets.entries()) {
        clock += gaps[i] ?? 0;
        await check(t, 'alert');
    }
    await d.deliverDue();
    expect(received()).toEqual(expected);
    return start;
}

it('their reminders: one SERVER STILL DOWN per chat channel, none to PagerDuty; a lone one is its own STILL FAILING', async () => {
    const { serverId, targets } = await node('validator-6');
    const [rpc, block, disk] = targets as [MonitorTarget, MonitorTarget, MonitorTarget];
    const d = dispatcher();
    const start = await serverDown(d, targets);
    const chats = { ...each(2), pagerduty: 1 };

    // 30 min later each monitor reminds, as far apart as they alerted: nobody is told until the last of them.
    clock = start + 30 * 60_000;
    await check(rpc, 'reminder');
    clock += 10_000;
    await check(block, 'reminder');
    await d.deliverDue();
    expect(received()).toEqual(each(1));
    clock += 25_000;
    await check(disk, 'reminder');
    await d.deliverDue();
    expect(received()).toEqual(chats);
    expect(telegram.sent[1]?.text.split('\n')).toEqual([
        '🔁 <b>SERVER STILL DOWN</b> validator-6 — 3 monitors failing: RPC, Block height, Disk',
        'Configuration: Mainnet validator-6 (cosmoshub)',
        'RPC (urlCheck): RPC does not answer',
        'Block height (blockCheck): Block height does not answer',
        'Disk (nodeExporterDiskSpace): Disk does not answer',
        `Down for 30 min, since ${new Date(start).toISOString().replace('T', ' ').slice(0, 19)} UTC`,
        expect.stringMatching(/^<i>Incidents [0-9a-f]{8}, [0-9a-f]{8}, [0-9a-f]{8}<\/i>$/),
    ]);
    expect(telegram.sent[1]?.reply_markup?.inline_keyboard[0]?.map((b) => b.text)).toEqual([
        'Acknowledge',
        'Silence 1 h',
    ]);
    const title = '[SERVER STILL DOWN] validator-6 — 3 monitors failing: RPC, Block height, Disk';
    const embed = discord.received[1]?.json as { embeds: { title: string }[] } | undefined;
    expect(embed?.embeds[0]?.title).toBe(title);
    const blocks = slack.received[1]?.json as { blocks: { text: { text: string } }[] } | undefined;
    expect(blocks?.blocks[0]?.text.text).toBe(title);
    expect(subject(smtp.mails[1]?.raw ?? '')).toBe(title);
    expect(hook.received[1]?.json).toMatchObject({
        kind: 'server_still_down',
        server: { id: serverId, name: 'validator-6' },
        monitor: null,
        incident_id: incidents.get(rpc.id)?.id,
        monitors: targets.map((t) => ({ id: t.id, name: t.name, incident_id: incidents.get(t.id)?.id })),
    });
    const reminders = await w.t.app.ctx.db
        .select()
        .from(outbox)
        .where(
            and(eq(outbox.kind, 'reminder'), eq(outbox.groupKey, `server/${serverId}/${incidents.get(rpc.id)?.id}`))
        );
    // One per channel that takes reminders (PagerDuty re-notifies by itself), each delivered by the one message.
    expect(reminders).toHaveLength(15);
    expect(reminders.every((r) => r.status === 'sent')).toBe(true);

    // The disk acknowledged while its next reminder waits (it is dropped), and the block height's never comes in
    // the window: the RPC's is its own.
    clock = start + 60 * 60_000;
    await check(rpc, 'reminder');
    await check(disk, 'reminder');
    const acked = await w.call('POST', `/api/incidents/${incidents.get(disk.id)?.id}/ack`, w.admin.access, {});
    expect(acked.statusCode).toBe(200);
    await d.deliverDue();
    expect(firstLines()[2]).toBe('👀 <b>ACKNOWLEDGED</b> Disk');
    clock += HOLD_CAP_MS - 5_000 - 1;
    await d.deliverDue();
    expect(firstLines()).toHaveLength(3);
    clock += 1;
    await d.deliverDue();
    expect(firstLines()[3]).toBe('🔁 <b>STILL FAILING</b> RPC');
    expect(pagerduty.received.map((r) => (r.json as { event_action: string }).event_action)).toEqual([
        'trigger',
        'acknowledge',
    ]);

    clock += 60_000;
    for (const t of targets) await check(t, 'recovery');
    await d.deliverDue();
    expect(firstLines()[4]).toBe('✅ <b>SERVER UP</b> validator-6 — 3 monitors recovered: RPC, Block height, Disk');
});

it('an escalation link gets one SERVER DOWN for the group, PagerDuty one page keyed by it, resolved by SERVER UP', async () => {
    const { configurationId, serverId, targets } = await node('validator-7');
    const db = w.t.app.ctx.db;
    const escalating = await db
        .select({ id: notificationChannels.id })
        .from(notificationChannels)
        .where(inArray(notificationChannels.name, ['telegram for validator-7', 'pagerduty for validator-7']));
    await db
        .update(configurationChannels)
        .set({ escalateAfterMinutes: 15 })
        .where(
            and(
                eq(configurationChannels.configurationId, configurationId),
                inArray(
                    configurationChannels.notificationChannelId,
                    escalating.map((c) => c.id)
                )
            )
        );
    const d = dispatcher();
    const start = await serverDown(d, targets, { ...each(1), telegram: 0, pagerduty: 0 });
    const key = `server/${serverId}/${incidents.get(targets[0]?.id ?? 0)?.id}`;

    // 15 min after the first failed, its incidents are escalated together: one message per channel.
    expect(await escalateDue(db, start + 15 * 60_000 - 1)).toBe(0);
    expect(await escalateDue(db, start + 15 * 60_000)).toBe(6);
    expect(await escalateDue(db, start + 16 * 60_000)).toBe(0);
    await d.deliverDue();
    expect(received()).toEqual(each(1));
    expect(telegram.sent[0]?.text.split('\n').slice(0, 5)).toEqual([
        '🔴 <b>SERVER DOWN</b> validator-7 — 3 monitors failing: RPC, Block height, Disk',
        'Configuration: Mainnet validator-7 (cosmoshub)',
        'RPC (urlCheck): RPC does not answer (unacknowledged for 15 min)',
        'Block height (blockCheck): Block height does not answer (unacknowledged for 14 min)',
        'Disk (nodeExporterDiskSpace): Disk does not answer (unacknowledged for 14 min)',
    ]);
    expect(pagerduty.received[0]?.json).toMatchObject({
        event_action: 'trigger',
        dedup_key: key,
        payload: { summary: '[SERVER DOWN] validator-7 — 3 monitors failing: RPC, Block height, Disk' },
    });

    clock += 20 * 60_000;
    for (const t of targets) await check(t, 'recovery');
    await d.deliverDue();
    expect(received()).toEqual(each(2));
    expect(firstLines()[1]).toBe('✅ <b>SERVER UP</b> validator-7 — 3 monitors recovered: RPC, Block height, Disk');
    expect(pagerduty.received[1]?.json).toEqual({
        event_action: 'resolve',
        dedup_key: key,
        routing_key: 'R0UT1NGKEYR0UT1NGKEYR0UT1NGKEY32',
    });
});
