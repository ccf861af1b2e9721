import { eq } from 'drizzle-orm';
import { monitors } from '../../../server/db/schema';
import type { ChainSim } from '../../../tools/chain-sim';
import { startChainSim } from '../../../tools/chain-sim';
import type { Receiver } from '../../support/fake-receivers';
import { startReceiver } from '../../support/fake-receivers';
import type { FakeTelegram } from '../../support/fake-telegram';
import { startFakeTelegram } from '../../support/fake-telegram';
import { createWorld, type World } from '../config-fixtures';
import { seedNode, waitFor } from '../seed';

/**
 * A link's min_severity: a disk monitor whose exporter fails once is in Warning. Only the links that ask for warnings
 * hear of it and of its end; links at the default (critical) hear nothing. When the disk then fills up, every link
 * gets the alert and its recovery.
 */

let sim: ChainSim;
let telegram: FakeTelegram;
let criticalHook: Receiver;
let warningHook: Receiver;
let w: World;

beforeAll(async () => {
    sim = await startChainSim({ blockTimeMs: 500 });
    telegram = await startFakeTelegram();
    criticalHook = await startReceiver({ status: 204 });
    warningHook = await startReceiver({ status: 204 });
});
afterAll(async () => {
    await w?.t.close();
    await sim?.close();
    await telegram?.close();
    for (const r of [criticalHook, warningHook]) await r?.close();
});

interface Body {
    kind: string;
    severity: string;
    incident_id: string;
    duration_seconds: number | null;
    message: string | null;
}

const kinds = (r: Receiver) => r.received.map((x) => (x.json as Body).kind);
const headings = (chat: string) =>
    telegram.sent.filter((m) => String(m.chat_id) === chat).map((m) => m.text.split('\n', 1)[0]);

it('a warning and its clear reach only warning links; the error reaches every link', { timeout: 120_000 }, async () => {
    w = await createWorld({ engineEnabled: true, telegramApiUrl: telegram.url });
    const node = sim.nodes[0];
    if (!node) throw new Error('no node');
    // Seeded with a Telegram link at the default severity (chat -2001).
    const { monitorId, configurationId } = await seedNode(w.t.app, {
        companyId: w.acme,
        services: [{ type: 'node_exporter', address: node.nodeExporterUrl }],
        monitor: {
            type: 'nodeExporterDiskSpace',
            name: 'Disk',
            settings: { threshold: 80, check_interval_seconds: 5, alert_sleep_duration_minutes: 60 },
        },
        telegram: { chatId: '-2001' },
    });
    const link = async (name: string, type: string, config: object, routing: object) => {
        const created = await w.call('POST', '/api/notification-channels', w.admin.access, {
            name,
            type,
            configuration_object: config,
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
    };
    await link('critical hook', 'webhook', { url: `${criticalHook.url}/in`, secret: 'c-secret' }, {});
    await link(
        'warning hook',
        'webhook',
        { url: `${warningHook.url}/in`, secret: 'w-secret' },
        { min_severity: 'warning' }
    );
    await link(
        'warning chat',
        'telegram',
        { bot_token: '123456:TEST-token', chat_id: '-2002' },
        { min_severity: 'warning' }
    );
    const row = async () => (await w.t.app.ctx.db.select().from(monitors).where(eq(monitors.id, monitorId)))[0];
    await waitFor('a first healthy check', async () => {
        const r = await row();
        return r?.lastCheck && r.status && r.lastError === null;
    });

    // The exporter fails once: Warning (three failures in a row would be an Error), then it answers again.
    sim.control.setFault(0, 'nodeExporter', { status: 503 });
    await waitFor('the warning', async () => {
        const r = await row();
        return r?.status && r.lastError !== null;
    });
    sim.control.clearFaults(0, 'nodeExporter');
    await waitFor('the warning and its clear', () => warningHook.received.length >= 2, 30_000);
    expect(kinds(warningHook)).toEqual(['warning', 'warning_cleared']);
    const [warning, cleared] = warningHook.received.map((x) => x.json as Body);
    expect(warning).toMatchObject({ severity: 'warning', duration_seconds: null });
    expect(warning?.message).toBeTruthy();
    expect(cleared).toMatchObject({ severity: 'warning', incident_id: warning?.incident_id });
    expect(typeof cleared?.duration_seconds).toBe('number');
    await waitFor('the warning chat', () => headings('-2002').length >= 2);
    expect(headings('-2002')).toEqual(['⚠️ <b>WARNING</b> Disk', '✅ <b>WARNING CLEARED</b> Disk']);

    sim.control.setDisk(0, '/', { percent: 91 });
    await waitFor(
        'the alert on both hooks',
        () => criticalHook.received.length >= 1 && warningHook.received.length >= 3
    );
    sim.control.setDisk(0, '/', { percent: 50 });
    await waitFor(
        'the recovery on both hooks',
        () => criticalHook.received.length >= 2 && warningHook.received.length >= 4
    );
    await waitFor('the recovery in both chats', () => headings('-2001').length >= 2 && headings('-2002').length >= 4);
    // Nothing more follows.
    await new Promise((r) => setTimeout(r, 1500));

    expect(kinds(criticalHook)).toEqual(['alert', 'recovery']);
    expect(kinds(warningHook)).toEqual(['warning', 'warning_cleared', 'alert', 'recovery']);
    expect(headings('-2001')).toEqual(['🔴 <b>ALERT</b> Disk', '✅ <b>RECOVERED</b> Disk']);
    expect(headings('-2002')).toEqual([
        '⚠️ <b>WARNING</b> Disk',
        '✅ <b>WARNING CLEARED</b> Disk',
        '🔴 <b>ALERT</b> Disk',
        '✅ <b>RECOVERED</b> Disk',
    ]);
});
