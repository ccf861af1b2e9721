import { eq } from 'drizzle-orm';
import { monitors } from '../../../server/db/schema';
import type { ChainSim } from '../../../tools/chain-sim';
import { startChainSim } from '../../../tools/chain-sim';
import { answers, type Receiver, startReceiver } from '../../support/fake-receivers';
import type { FakeTelegram } from '../../support/fake-telegram';
import { startFakeTelegram } from '../../support/fake-telegram';
import type { TestApp } from '../helpers';
import { auth, login, persistentTestDatabase, seedCompany, seedUser, startAppOn } from '../helpers';
import { seedNode, waitFor } from '../seed';

/**
 * Acknowledgement and escalation end to end, against the chain simulator, a fake Telegram and a fake PagerDuty linked
 * with `escalate_after_minutes: 15`: node halts → alert in Telegram only; a restart; 16 minutes unacknowledged →
 * PagerDuty is paged; acknowledged through the API → one ACKNOWLEDGED per channel (PagerDuty: `acknowledge`), no
 * reminder after it, across another restart; the recovery still comes to both. A second outage acknowledged at once
 * never reaches PagerDuty. The engine, the simulator and the test share one shifted clock.
 */
let sim: ChainSim;
let telegram: FakeTelegram;
let pagerduty: Receiver;
let db: Awaited<ReturnType<typeof persistentTestDatabase>>;
let t: TestApp;
const MIN = 60_000;

beforeAll(async () => {
    sim = await startChainSim({ blockTimeMs: 200 });
    telegram = await startFakeTelegram();
    pagerduty = await startReceiver(answers.pagerdutyAccepted());
    db = await persistentTestDatabase();
});
afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
    await sim.close();
    await telegram.close();
    await pagerduty.close();
    await db.drop();
});

const texts = () => telegram.sent.map((m) => m.text);
const events = () => pagerduty.received.map((r) => r.json as { event_action: string; dedup_key: string });
/** Moves the shared clock `ms` ahead of where it is now. */
const shift = (ms: number) => vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: Date.now() + ms });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('escalates an unacknowledged incident after its delay; acknowledgement stops reminders and escalation, not the recovery', {
    timeout: 240_000,
}, async () => {
    const config = {
        ...db.config,
        engineEnabled: true,
        telegramApiUrl: telegram.url,
        pagerdutyEventsUrl: pagerduty.url,
    };
    t = await startAppOn(config);
    const companyId = await seedCompany(t.app, 'Validators Inc');
    await seedUser(t.app, { username: 'oncall', companyId, isAdmin: true });
    const node = sim.nodes[0];
    if (!node) throw new Error('no node');
    const { monitorId, configurationId } = await seedNode(t.app, {
        companyId,
        services: [{ type: 'rpc', address: node.rpcUrl }],
        monitor: {
            type: 'blockCheck',
            name: 'Block production',
            settings: {
                miss_tolerance: 2,
                miss_tolerance_period_seconds: 3,
                sleep_duration_seconds: 1,
                alert_sleep_duration_minutes: 1,
            },
        },
        telegram: { chatId: '-1001234' },
    });
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
        const { access } = await login(t.app, 'oncall');
        return t.app.inject({ method, url, headers: auth(access), payload });
    };
    const pager = await call('POST', '/api/notification-channels', {
        name: 'On-call',
        type: 'pagerduty',
        configuration_object: { routing_key: 'R0UTINGKEY0123456789abcdefABCDEF' },
        is_enabled: true,
    });
    const linked = await call('POST', `/api/configurations/${configurationId}/notification-channels`, {
        notification_channel_id: pager.json().id,
        escalate_after_minutes: 15,
    });
    expect(linked.json()).toMatchObject({ escalate_after_minutes: 15 });
    const row = async () => (await t.app.ctx.db.select().from(monitors).where(eq(monitors.id, monitorId)))[0];
    await waitFor('a first healthy check', async () => (await row())?.lastCheck && (await row())?.status);

    // 1. Unacknowledged: Telegram at once, PagerDuty after 15 minutes, over a restart.
    sim.control.halt(0);
    await waitFor('the alert', () => telegram.sent.length >= 1);
    expect(texts()[0]).toContain('ALERT');
    const open = (await call('GET', '/api/incidents?filter={"status":"open"}')).json().results;
    expect(open).toHaveLength(1);
    const first = open[0].id as string;
    expect(texts()[0]).toContain(`Incident ${first.slice(0, 8)}`);
    const failed = (await call('GET', '/api/monitors/failed')).json();
    expect(failed[0]).toMatchObject({ id: monitorId, incident: { id: first } });

    await t.close();
    t = await startAppOn(config);
    await pause(6000);
    expect(events()).toEqual([]);
    shift(16 * MIN);
    await waitFor('PagerDuty paged', () => pagerduty.received.length >= 1);
    expect(events()[0]).toMatchObject({ event_action: 'trigger', dedup_key: first });
    await waitFor('a reminder', () => texts().some((x) => x.includes('STILL FAILING')));

    const ack = await call('POST', `/api/incidents/${first}/ack`, { note: 'On it' });
    expect(ack.statusCode).toBe(200);
    await waitFor(
        'the acknowledgements',
        () => texts().some((x) => x.includes('ACKNOWLEDGED')) && pagerduty.received.length >= 2
    );
    expect(events()[1]).toEqual({
        routing_key: 'R0UTINGKEY0123456789abcdefABCDEF',
        event_action: 'acknowledge',
        dedup_key: first,
    });
    const sentBeforeQuiet = texts().length;
    shift(3 * MIN);
    await pause(5000);
    await t.close();
    t = await startAppOn(config);
    shift(3 * MIN);
    await pause(6000);
    // No reminder after the acknowledgement, nor after the restart; the acknowledgement went out once.
    expect(texts()).toHaveLength(sentBeforeQuiet);
    expect(texts().filter((x) => x.includes('ACKNOWLEDGED'))).toHaveLength(1);
    expect(texts().filter((x) => x.includes('ACKNOWLEDGED'))[0]).toContain('Acknowledged by oncall (console): On it');

    sim.control.resume(0);
    await waitFor('the recovery', () => texts().some((x) => x.includes('RECOVERED')) && pagerduty.received.length >= 3);
    expect(events()[2]).toMatchObject({ event_action: 'resolve', dedup_key: first });
    const closed = (await call('GET', `/api/incidents/${first}`)).json();
    expect(closed).toMatchObject({ status: 'closed', acknowledged_by: 'oncall', acknowledged_via: 'console' });
    // What happened (entries without a delivery result), then each delivery with its channel and result.
    const happened = closed.timeline.filter((e: { result?: string }) => !e.result).map((e: { kind: string }) => e.kind);
    expect(happened[0]).toBe('alert');
    expect(happened.slice(-2)).toEqual(['acknowledged', 'recovery']);
    expect(happened.filter((k: string) => k === 'escalation')).toHaveLength(1);
    expect(
        happened
            .filter((k: string) => k !== 'escalation')
            .slice(1, -2)
            .every((k: string) => k === 'reminder')
    ).toBe(true);
    expect(
        closed.timeline
            .filter((e: { result?: string }) => e.result)
            .every((e: { result: string }) => e.result === 'sent')
    ).toBe(true);

    // 2. Acknowledged before its delay: PagerDuty never hears of it.
    await waitFor('healthy again', async () => (await row())?.status);
    shift(20 * MIN);
    const before = texts().length;
    sim.control.halt(0);
    await waitFor('the second alert', () => texts().length > before && texts().at(-1)?.includes('ALERT'));
    const second = (await call('GET', '/api/incidents?filter={"status":"open"}')).json().results[0].id as string;
    expect(second).not.toBe(first);
    expect((await call('POST', `/api/incidents/${second}/ack`)).statusCode).toBe(200);
    expect((await call('POST', `/api/incidents/${second}/ack`)).statusCode).toBe(409);
    await waitFor('its acknowledgement', () => texts().at(-1)?.includes('ACKNOWLEDGED'));
    shift(20 * MIN);
    await pause(7000);
    expect(pagerduty.received).toHaveLength(3);
    sim.control.resume(0);
    await waitFor('the second recovery', () => texts().at(-1)?.includes('RECOVERED'));
    expect(
        texts()
            .slice(before)
            .map((x) => x.split(' ')[1])
    ).toEqual(['<b>ALERT</b>', '<b>ACKNOWLEDGED</b>', '<b>RECOVERED</b>']);
    expect(pagerduty.received).toHaveLength(3);
});
