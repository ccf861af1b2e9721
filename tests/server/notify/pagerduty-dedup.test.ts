import { eq } from 'drizzle-orm';
import { encryptSecret } from '../../../server/auth/secrets';
import { notificationChannels, outbox } from '../../../server/db/schema';
import { OutboxDispatcher } from '../../../server/notify/outbox';
import { CHANNELS } from '../../../server/notify/channels';
import { type NotificationFacts, type ServerGroupRecord, toRecord } from '../../../server/notify/record';
import { answers, type Receiver, startReceiver } from '../../support/fake-receivers';
import { createTestApp, seedCompany, type TestApp } from '../helpers';

/**
 * PagerDuty's own idempotency key (dedup_key) makes a message delivered twice one incident: every event of one incident
 * carries the same dedup_key on the wire (trigger, acknowledge, resolve), and so does a trigger sent again: after a
 * transient failure, and after a process died between PagerDuty's 202 and the row's "sent" mark (the row is simply
 * still pending), so PagerDuty folds the second one into the incident it opened. Another incident has its own key.
 */
let t: TestApp;
let pagerduty: Receiver;
let channelId: number;

beforeAll(async () => {
    pagerduty = await startReceiver(answers.pagerdutyAccepted());
    t = await createTestApp({ pagerdutyEventsUrl: pagerduty.url });
    const companyId = await seedCompany(t.app, 'Paged Inc');
    const [channel] = await t.app.ctx.db
        .insert(notificationChannels)
        .values({
            companyId,
            name: 'On-call',
            type: 'pagerduty',
            configurationObject: JSON.stringify({
                routing_key: encryptSecret(t.app.ctx.keys.secretsAtRest, 'R0UT1NGKEYR0UT1NGKEYR0UT1NGKEY32'),
            }),
        })
        .returning();
    channelId = channel?.id ?? 0;
});
afterAll(async () => {
    await t?.close();
    await pagerduty?.close();
});
beforeEach(() => {
    pagerduty.received.length = 0;
    pagerduty.script.length = 0;
});

const subject = (id: number) => ({
    id,
    name: `Block production ${id}`,
    type: 'blockCheck',
    configuration: { id: 1, name: 'Hub', chain: 'cosmoshub' },
    server: { id: 3, name: 'validator-1' },
});

async function queue(
    incidentId: string,
    kind: NotificationFacts['kind'],
    monitorId = 42,
    extra: Partial<NotificationFacts> = {}
): Promise<number> {
    const facts: NotificationFacts = {
        kind,
        incidentId,
        since: Date.now() - 60_000,
        message: 'No new block for 60 s',
        ...extra,
    };
    const [row] = await t.app.ctx.db
        .insert(outbox)
        .values({
            channelId,
            monitorId,
            kind,
            incidentId,
            text: kind,
            payload: JSON.stringify(toRecord(subject(monitorId), facts, Date.now())),
        })
        .returning({ id: outbox.id });
    return row?.id ?? 0;
}

/** One delivery pass with every pending row due now (a retry's backoff is not waited out). */
async function deliver(): Promise<number> {
    await t.app.ctx.db.update(outbox).set({ nextAttemptAt: new Date() }).where(eq(outbox.status, 'pending'));
    return new OutboxDispatcher(t.app.ctx, t.app.log, 60_000).deliverDue();
}

/** The row as a process killed after PagerDuty's 202 left it: still pending, so another process sends it again. */
const lostSentMark = (id: number) =>
    t.app.ctx.db.update(outbox).set({ status: 'pending', sentAt: null }).where(eq(outbox.id, id));

const events = () =>
    pagerduty.received.map((r) => {
        const { event_action, dedup_key } = r.json as { event_action: string; dedup_key: string };
        return [event_action, dedup_key];
    });

it('sends one dedup_key for every event of an incident, a trigger sent again included; another incident has its own', async () => {
    const first = '3f1c2b4a-0000-4000-8000-000000000001';
    const second = '3f1c2b4a-0000-4000-8000-000000000002';
    const alert = await queue(first, 'alert');
    // Transient failure, then accepted: the retry is the same event.
    pagerduty.script.push({ status: 502, body: '' });
    expect(await deliver()).toBe(0);
    expect(await deliver()).toBe(1);
    // Accepted, but the "sent" mark was lost: delivered again.
    await lostSentMark(alert);
    expect(await deliver()).toBe(1);
    await queue(second, 'alert', 43);
    await queue(first, 'acknowledged');
    await queue(first, 'recovery');
    expect(await deliver()).toBe(3);

    expect(events()).toEqual([
        ['trigger', first],
        ['trigger', first],
        ['trigger', first],
        ['trigger', second],
        ['acknowledge', first],
        ['resolve', first],
    ]);
});

it('keys a message queued without its record by the whole message: sent again alike, two messages apart', async () => {
    // Rows written before payloads existed go out as their text; two monitors' alerts begin alike.
    const rows = await t.app.ctx.db
        .insert(outbox)
        .values(
            ['validator-1', 'validator-2'].map((server) => ({
                channelId,
                kind: 'alert',
                text: `🔴 <b>ALERT</b> Block production\nNo new block for 60 s on ${server}`,
            }))
        )
        .returning({ id: outbox.id });
    expect(await deliver()).toBe(2);
    await lostSentMark(rows[0]?.id ?? 0);
    expect(await deliver()).toBe(1);

    const [one, two, again] = events().map(([, key]) => key);
    expect(one).not.toBe(two);
    expect(again).toBe(one);
});

it('resolves the incident of a warning that became an alert, which no warning-cleared will end, before the alert triggers', async () => {
    const warning = '3f1c2b4a-0000-4000-8000-000000000011';
    const alert = '3f1c2b4a-0000-4000-8000-000000000012';
    await queue(warning, 'warning');
    expect(await deliver()).toBe(1);
    await queue(alert, 'alert', 42, { endsWarning: warning });
    await queue(alert, 'recovery');
    // The resolve refused once: the alert is sent again whole, resolving again first (idempotent at PagerDuty).
    pagerduty.script.push({ status: 502, body: '' });
    expect(await deliver()).toBe(0);
    expect(await deliver()).toBe(2);
    expect(events()).toEqual([
        ['trigger', warning],
        ['resolve', warning],
        ['resolve', warning],
        ['trigger', alert],
        ['resolve', alert],
    ]);
    const severities = pagerduty.received.map((r) => (r.json as { payload?: { severity: string } }).payload?.severity);
    expect(severities).toEqual(['warning', undefined, undefined, 'critical', undefined]);
});

it('resolves, before a SERVER DOWN page, the warning incidents its monitors’ alerts end', () => {
    const member = (monitorId: number, incidentId: string, endsWarning?: string) =>
        toRecord(
            subject(monitorId),
            { kind: 'alert', incidentId, since: 1_000, message: 'down', ...(endsWarning ? { endsWarning } : {}) },
            2_000
        );
    const group: ServerGroupRecord = {
        kind: 'server-down',
        group: 'server/3/a-1',
        server: { id: 3, name: 'validator-1' },
        configuration: { id: 1, name: 'Hub', chain: 'cosmoshub' },
        members: [member(42, 'a-1', 'w-1'), member(43, 'a-2')],
        since: 1_000,
        at: 2_000,
    };
    expect(CHANNELS.pagerduty.render(group)).toMatchObject({
        event_action: 'trigger',
        dedup_key: 'server/3/a-1',
        resolveFirst: ['w-1'],
    });
    const quiet = { ...group, members: [member(42, 'a-1'), member(43, 'a-2')] };
    expect(CHANNELS.pagerduty.render(quiet)).not.toHaveProperty('resolveFirst');
});
