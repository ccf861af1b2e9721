import { asc, eq } from 'drizzle-orm';
import { configurationChannels, incidents, notificationChannels, outbox } from '../../../server/db/schema';
import type { CheckRecord } from '../../../server/engine/results';
import { ResultWriter } from '../../../server/engine/results';
import type { MonitorTarget } from '../../../server/engine/targets';
import type { Notification } from '../../../server/engine/transitions';
import { acknowledgeIncident } from '../../../server/incidents/acknowledge';
import { escalateDue, pruneIncidents } from '../../../server/incidents/sweeper';
import type { TestApp } from '../helpers';
import { createTestApp, seedCompany } from '../helpers';
import { seedNode } from '../seed';

/**
 * Incidents as the engine writes them (the ResultWriter's transaction) and as acknowledgement and the escalation
 * sweep change them, on one database; a new ResultWriter stands for a restart of the engine.
 */
let t: TestApp;
let target: MonitorTarget;
let telegramId: number;
let pagerId: number;
const MIN = 60_000;
const t0 = Date.parse('2026-11-24T03:00:00Z');

beforeAll(async () => {
    t = await createTestApp();
    const company = await seedCompany(t.app, 'Acme');
    const seeded = await seedNode(t.app, {
        companyId: company,
        services: [],
        monitor: { type: 'urlCheck', name: 'Explorer', settings: { address: 'http://127.0.0.1:9' } },
        telegram: { chatId: '-100' },
    });
    telegramId = seeded.channelId ?? 0;
    const [pager] = await t.app.ctx.db
        .insert(notificationChannels)
        .values({
            companyId: company,
            name: 'On-call',
            type: 'pagerduty',
            configurationObject: JSON.stringify({ routing_key: 'R0UTINGKEY0123456789abcdefABCDEF' }),
        })
        .returning();
    pagerId = pager?.id ?? 0;
    await t.app.ctx.db
        .insert(configurationChannels)
        .values({ configurationId: seeded.configurationId, notificationChannelId: pagerId, escalateAfterMinutes: 15 });
    target = {
        id: seeded.monitorId,
        name: 'Explorer',
        type: 'urlCheck',
        settings: {},
        key: '',
        configuration: { id: seeded.configurationId, name: 'Sim mainnet', chain: 'cosmoshub', companyId: company },
        server: { id: seeded.serverId, name: 'validator-1', address: 'http://127.0.0.1' },
        services: [],
    };
});
afterAll(() => t.close());

const check = (at: number, notification: Notification): CheckRecord => ({
    target,
    status: notification.kind === 'recovery',
    lastError: notification.kind === 'recovery' ? null : 'HTTP 503',
    checkedAt: new Date(at),
    state: {
        alert:
            notification.kind === 'recovery'
                ? { status: 'normal', since: null, lastNotifiedAt: null, incidentId: null }
                : {
                      status: 'alerting',
                      since: notification.since,
                      lastNotifiedAt: at,
                      incidentId: notification.incidentId,
                  },
        memory: null,
    },
    transition: {
        state: { status: 'alerting', since: at, lastNotifiedAt: at, incidentId: null },
        notification,
        change: null,
    },
});

const step = async (
    writer: ResultWriter,
    at: number,
    kind: Notification['kind'],
    incidentId: string,
    since: number
) => {
    writer.record(
        check(at, {
            kind,
            incidentId,
            since,
            message: 'HTTP 503',
            ...(kind === 'recovery' ? { durationMs: at - since } : {}),
        })
    );
    await writer.flush();
};

/** Outbox rows of an incident as `kind→channel`, in queue order. */
const queued = async (incidentId: string) =>
    (
        await t.app.ctx.db
            .select({ kind: outbox.kind, channelId: outbox.channelId })
            .from(outbox)
            .where(eq(outbox.incidentId, incidentId))
            .orderBy(asc(outbox.id))
    ).map(
        (r) =>
            `${r.kind}→${r.channelId === pagerId ? 'pagerduty' : r.channelId === telegramId ? 'telegram' : r.channelId}`
    );

const incident = async (id: string) => (await t.app.ctx.db.select().from(incidents).where(eq(incidents.id, id)))[0];

it('unacknowledged: the escalation channel gets the alert after its delay, once, then reminders and the recovery', async () => {
    const id = 'a1a1a1a1-0000-4000-8000-000000000001';
    await step(new ResultWriter(t.app.ctx.db, t.app.log), t0, 'alert', id, t0);
    expect(await incident(id)).toMatchObject({ status: 'open', monitorId: target.id, kind: 'monitor' });
    expect(await queued(id)).toEqual(['alert→telegram']);

    expect(await escalateDue(t.app.ctx.db, t0 + 14 * MIN)).toBe(0);
    expect(await escalateDue(t.app.ctx.db, t0 + 15 * MIN)).toBe(1);
    expect(await escalateDue(t.app.ctx.db, t0 + 16 * MIN)).toBe(0);
    expect(await queued(id)).toEqual(['alert→telegram', 'alert→pagerduty']);

    // Restart: a new writer decides from the database that the escalation channel has the incident now.
    const writer = new ResultWriter(t.app.ctx.db, t.app.log);
    await step(writer, t0 + 20 * MIN, 'reminder', id, t0);
    await step(writer, t0 + 25 * MIN, 'recovery', id, t0);
    // PagerDuty sends no reminders (it re-notifies itself) but resolves.
    expect(await queued(id)).toEqual([
        'alert→telegram',
        'alert→pagerduty',
        'reminder→telegram',
        'recovery→telegram',
        'recovery→pagerduty',
    ]);
    expect(await incident(id)).toMatchObject({ status: 'closed', closedAt: new Date(t0 + 25 * MIN) });
    await step(writer, t0 + 26 * MIN, 'recovery', id, t0);
    expect((await incident(id))?.closedAt).toEqual(new Date(t0 + 25 * MIN));
});

it('acknowledged: reminders stop (across a restart), escalation never comes, the recovery still goes', async () => {
    const id = 'b2b2b2b2-0000-4000-8000-000000000002';
    const since = t0 + 60 * MIN;
    await step(new ResultWriter(t.app.ctx.db, t.app.log), since, 'alert', id, since);
    const ack = await acknowledgeIncident(
        t.app.ctx.db,
        id,
        { kind: 'telegram', userId: 42, username: 'night_owl' },
        { now: since + 3 * MIN }
    );
    expect(ack.ok).toBe(true);
    expect(await incident(id)).toMatchObject({ acknowledgedBy: '@night_owl', acknowledgedVia: 'telegram' });
    const again = await acknowledgeIncident(
        t.app.ctx.db,
        id,
        { kind: 'telegram', userId: 43 },
        { now: since + 4 * MIN }
    );
    expect(again).toMatchObject({ ok: false, status: 409 });

    const writer = new ResultWriter(t.app.ctx.db, t.app.log);
    await step(writer, since + 10 * MIN, 'reminder', id, since);
    expect(await escalateDue(t.app.ctx.db, since + 60 * MIN)).toBe(0);
    await step(new ResultWriter(t.app.ctx.db, t.app.log), since + 70 * MIN, 'reminder', id, since);
    await step(writer, since + 80 * MIN, 'recovery', id, since);
    // One acknowledgement to the channel that had the alert; none to the escalation channel, which never had it.
    expect(await queued(id)).toEqual(['alert→telegram', 'acknowledged→telegram', 'recovery→telegram']);
    const closed = await acknowledgeIncident(t.app.ctx.db, id, { kind: 'telegram', userId: 42 });
    expect(closed).toEqual({ ok: false, status: 409, message: 'The incident is already closed' });
});

it('keeps a chain halt as one incident of its configuration, opened by CHAIN STALLED and closed by CHAIN RESUMED', async () => {
    const id = 'd4d4d4d4-0000-4000-8000-000000000004';
    const since = t0 + 200 * MIN;
    const writer = new ResultWriter(t.app.ctx.db, t.app.log);
    await step(writer, since + MIN, 'chain-stalled', id, since);
    expect(await incident(id)).toMatchObject({
        kind: 'chain',
        status: 'open',
        serverId: null,
        configurationId: target.configuration.id,
        openedAt: new Date(since),
    });
    await step(writer, since + 9 * MIN, 'chain-resumed', id, since);
    expect(await incident(id)).toMatchObject({ status: 'closed', closedAt: new Date(since + 9 * MIN) });
    expect(await queued(id)).toEqual(['chain-stalled→telegram', 'chain-resumed→telegram']);
});

it('deletes incidents closed longer ago than the retention, keeping the rest', async () => {
    const day = 86_400_000;
    const old = 'c3c3c3c3-0000-4000-8000-000000000003';
    const since = t0 - 500 * day;
    const writer = new ResultWriter(t.app.ctx.db, t.app.log);
    await step(writer, since, 'alert', old, since);
    await step(writer, since + MIN, 'recovery', old, since);
    expect(await pruneIncidents(t.app.ctx.db, 400, t0)).toBe(1);
    expect(await incident(old)).toBeUndefined();
    expect(await incident('a1a1a1a1-0000-4000-8000-000000000001')).toBeDefined();
});

it('a silenced incident escalates only once its silence is over', async () => {
    const id = 'a1a1a1a1-0000-4000-8000-000000000009';
    const since = t0 + 1000 * MIN;
    await step(new ResultWriter(t.app.ctx.db, t.app.log), since, 'alert', id, since);
    let covered = true;
    const silenced = (i: { monitorId: number }) => covered && i.monitorId === target.id;
    expect(await escalateDue(t.app.ctx.db, since + 20 * MIN, silenced)).toBe(0);
    expect(await queued(id)).toEqual(['alert→telegram']);
    covered = false;
    expect(await escalateDue(t.app.ctx.db, since + 21 * MIN, silenced)).toBe(1);
    expect(await queued(id)).toEqual(['alert→telegram', 'alert→pagerduty']);
});
