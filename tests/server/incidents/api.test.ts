import { eq } from 'drizzle-orm';
import { incidents, monitorStates, outbox } from '../../../server/db/schema';
import { CHANNELS } from '../../../server/notify/channels';
import { parsePayload, toRecord } from '../../../server/notify/record';
import { createWorld, type World } from '../config-fixtures';
import { auth } from '../helpers';

/** GET/POST /api/incidents… (list, MTTA and MTTR, acknowledge, notes) as an operator's tools and scripts call them. */
let w: World;
let cfg: number;
let links: { webhook: number; pager: number };
const MIN = 60_000;
const base = Date.parse('2026-11-20T10:00:00Z');
const ids = {
    open: '11111111-0000-4000-8000-000000000001',
    closed: '22222222-0000-4000-8000-000000000002',
    acked: '33333333-0000-4000-8000-000000000003',
    otherCo: '44444444-0000-4000-8000-000000000004',
};

async function seedIncident(
    id: string,
    companyId: number,
    configurationId: number,
    monitorId: number,
    opened: number,
    extra: Partial<typeof incidents.$inferInsert> = {}
) {
    const subject = {
        id: monitorId,
        name: `Monitor ${monitorId}`,
        type: 'blockCheck',
        configuration: { id: configurationId, name: 'Main', chain: 'cosmoshub' },
        server: { id: 1, name: 'node-1' },
    };
    const record = toRecord(subject, { kind: 'alert', incidentId: id, since: opened, message: 'No new block' }, opened);
    await w.t.app.ctx.db.insert(incidents).values({
        id,
        companyId,
        kind: 'monitor',
        configurationId,
        configurationName: 'Main',
        monitorId,
        monitorName: subject.name,
        serverId: 1,
        serverName: 'node-1',
        message: 'No new block',
        payload: JSON.stringify(record),
        openedAt: new Date(opened),
        ...extra,
    });
}

beforeAll(async () => {
    w = await createWorld();
    cfg = await w.configuration(w.admin.access);
    const globexCfg = await w.configuration(w.other.access, { name: 'Theirs' });
    const channel = async (body: object) =>
        (await w.call('POST', '/api/notification-channels', w.admin.access, body)).json().id as number;
    const webhook = await channel({
        name: 'Hook',
        type: 'webhook',
        configuration_object: { url: 'https://example.com/hook', secret: 's3cret' },
        is_enabled: true,
    });
    const pager = await channel({
        name: 'On-call',
        type: 'pagerduty',
        configuration_object: { routing_key: 'R0UTINGKEY0123456789abcdefABCDEF' },
        is_enabled: true,
    });
    const link = async (id: number) =>
        (
            await w.call('POST', `/api/configurations/${cfg}/notification-channels`, w.admin.access, {
                notification_channel_id: id,
            })
        ).json().id as number;
    links = { webhook: await link(webhook), pager: await link(pager) };
    await seedIncident(ids.open, w.acme, cfg, 7, base + 30 * MIN);
    await seedIncident(ids.closed, w.acme, cfg, 8, base, { status: 'closed', closedAt: new Date(base + 20 * MIN) });
    await seedIncident(ids.acked, w.acme, cfg, 7, base + 10 * MIN, {
        status: 'closed',
        acknowledgedAt: new Date(base + 14 * MIN),
        acknowledgedBy: 'alice',
        acknowledgedVia: 'console',
        closedAt: new Date(base + 50 * MIN),
    });
    await seedIncident(ids.otherCo, w.globex, globexCfg, 99, base);
});
afterAll(() => w?.t.close());

const list = (token: string, query: Record<string, unknown>) => {
    const qs = Object.entries(query)
        .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
        .join('&');
    return w.call('GET', `/api/incidents?${qs}`, token);
};

it('lists as react-admin reads it: results, Content-Range, sort, range and filters done by the server', async () => {
    const page = await list(w.admin.access, { sort: ['opened_at', 'DESC'], range: [0, 1] });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-range']).toBe('incidents 0-1/3');
    expect(page.json().results.map((i: { id: string }) => i.id)).toEqual([ids.open, ids.acked]);
    const second = await list(w.admin.access, { sort: ['opened_at', 'DESC'], range: [2, 3] });
    expect(second.headers['content-range']).toBe('incidents 2-2/3');
    expect(second.json().results[0]).toMatchObject({
        id: ids.closed,
        status: 'closed',
        severity: 'critical',
        monitor_id: 8,
        server_id: 1,
        configuration_id: cfg,
        opened_at: new Date(base).toISOString(),
        acknowledged_at: null,
        acknowledged_by: null,
        closed_at: new Date(base + 20 * MIN).toISOString(),
        duration_seconds: 1200,
    });
    const byDuration = await list(w.admin.access, { sort: ['duration_seconds', 'ASC'], filter: { status: 'closed' } });
    expect(byDuration.json().results.map((i: { id: string }) => i.id)).toEqual([ids.closed, ids.acked]);
    const open = await list(w.admin.access, { filter: { status: 'open' } });
    expect(open.json().results.map((i: { id: string }) => i.id)).toEqual([ids.open]);
    expect(open.json().results[0].duration_seconds).toBeGreaterThan(3600);
    const byMonitor = await list(w.admin.access, { filter: { monitor_id: 7, configuration_id: cfg } });
    expect(byMonitor.headers['content-range']).toBe('incidents 0-1/2');

    for (const [query, field] of [
        [{ filter: { status: 'gone' } }, 'status'],
        [{ filter: { monitor_id: 'seven' } }, 'monitor_id'],
        [{ filter: { configuration_id: -1 } }, 'configuration_id'],
        [{ filter: { monitor_id: 99_999_999_999 } }, 'monitor_id'],
        [{ sort: ['payload', 'ASC'] }, 'sort'],
    ] as const) {
        const bad = await list(w.admin.access, query);
        expect(bad.statusCode).toBe(400);
        expect(Object.keys(bad.json().errors)).toEqual([field]);
    }
});

it('computes MTTA and MTTR over exactly the incidents the same filter lists', async () => {
    const filter = { configuration_id: cfg };
    const rows = (await list(w.admin.access, { filter, range: [0, 99] })).json().results as {
        opened_at: string;
        acknowledged_at: string | null;
        closed_at: string | null;
    }[];
    const mean = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) / values.length);
    const secs = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;
    const stats = (
        await w.call('GET', `/api/incidents/stats?filter=${encodeURIComponent(JSON.stringify(filter))}`, w.plain.access)
    ).json();
    expect(stats).toEqual({
        count: rows.length,
        acknowledged: 1,
        closed: 2,
        mtta_seconds: mean(rows.flatMap((r) => (r.acknowledged_at ? [secs(r.opened_at, r.acknowledged_at)] : []))),
        mttr_seconds: mean(rows.flatMap((r) => (r.closed_at ? [secs(r.opened_at, r.closed_at)] : []))),
    });
    expect(stats).toMatchObject({ mtta_seconds: 240, mttr_seconds: 1800 });
    const none = (
        await w.call('GET', `/api/incidents/stats?filter=${encodeURIComponent('{"status":"open"}')}`, w.admin.access)
    ).json();
    expect(none).toMatchObject({ count: 1, mtta_seconds: null, mttr_seconds: null });
});

it('keeps each company to its own incidents: another company’s answers 404, a super admin sees all', async () => {
    const theirs = await list(w.other.access, {});
    expect(theirs.json().results.map((i: { id: string }) => i.id)).toEqual([ids.otherCo]);
    expect((await list(w.root.access, { range: [0, 9] })).headers['content-range']).toBe('incidents 0-3/4');
    expect((await w.call('GET', `/api/incidents/${ids.otherCo}`, w.admin.access)).statusCode).toBe(404);
    expect((await w.call('POST', `/api/incidents/${ids.otherCo}/ack`, w.admin.access, {})).statusCode).toBe(404);
    expect(
        (await w.call('POST', `/api/incidents/${ids.otherCo}/notes`, w.admin.access, { note: 'x' })).statusCode
    ).toBe(404);
    expect((await w.call('GET', '/api/incidents/no-such-incident', w.admin.access)).statusCode).toBe(404);
    expect((await w.call('GET', '/api/incidents/bad%00id', w.admin.access)).statusCode).toBe(400);
    // Plain users read, but do not act.
    expect((await w.call('GET', `/api/incidents/${ids.open}`, w.plain.access)).statusCode).toBe(200);
    expect((await w.call('POST', `/api/incidents/${ids.open}/ack`, w.plain.access, {})).statusCode).toBe(403);
    expect((await w.call('POST', `/api/incidents/${ids.open}/notes`, w.plain.access, { note: 'x' })).statusCode).toBe(
        403
    );
});

it('acknowledges once, with a note, telling each linked channel; a second time or a closed one answers 409', async () => {
    expect(
        (await w.call('POST', `/api/incidents/${ids.open}/ack`, w.admin.access, { note: 42 })).json().errors
    ).toHaveProperty('note');
    expect((await w.call('POST', `/api/incidents/${ids.open}/ack`, w.admin.access, { who: 'me' })).statusCode).toBe(
        400
    );

    const res = await w.call('POST', `/api/incidents/${ids.open}/ack`, w.admin.access, { note: 'Restarting the node' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: ids.open, status: 'open', acknowledged_by: 'alice', acknowledged_via: 'console' });
    expect(Date.parse(body.acknowledged_at)).toBeGreaterThan(base);
    expect(body.timeline).toContainEqual(
        expect.objectContaining({ kind: 'acknowledged', text: 'Acknowledged by alice (console): Restarting the node' })
    );
    const rows = await w.t.app.ctx.db.select().from(outbox).where(eq(outbox.incidentId, ids.open));
    expect(rows.map((r) => r.kind)).toEqual(['acknowledged', 'acknowledged']);
    // PagerDuty acknowledges the incident it opened (same dedup_key); the others get a short message.
    const record = parsePayload(rows[0]?.payload ?? null);
    if (!record || record.kind === 'test') throw new Error('no record');
    expect(CHANNELS.pagerduty.render(record)).toEqual({ event_action: 'acknowledge', dedup_key: ids.open });
    expect(CHANNELS.webhook.render(record)).toMatchObject({ kind: 'acknowledged', incident_id: ids.open });
    expect(rows[0]?.text).toContain('ACKNOWLEDGED');
    expect(rows[0]?.text).toContain('Acknowledged by alice (console): Restarting the node');
    // Each delivery shows in the timeline with its channel and result.
    expect(body.timeline.filter((e: { result?: string }) => e.result === 'pending')).toHaveLength(2);
    expect(
        body.timeline
            .map((e: { channel_name?: string }) => e.channel_name)
            .filter(Boolean)
            .sort()
    ).toEqual(['Hook', 'On-call']);

    const again = await w.call('POST', `/api/incidents/${ids.open}/ack`, w.admin.access);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/^The incident was already acknowledged by alice at /);
    const closed = await w.call('POST', `/api/incidents/${ids.closed}/ack`, w.admin.access, {});
    expect(closed.statusCode).toBe(409);
    expect(closed.json().message).toBe('The incident is already closed');
    expect((await w.audit()).map((a) => a.message)).toContain(
        'Incident 11111111 acknowledged by alice (console): Restarting the node'
    );
});

it("says on the monitor's open incident who acknowledged it, for the dashboard row", async () => {
    const monitorId = (
        await w.call('POST', '/api/monitors', w.admin.access, {
            configuration_id: cfg,
            name: 'acked',
            type: 'urlCheck',
            configuration_object: '{"address":"http://127.0.0.1:9/"}',
        })
    ).json().id as number;
    const id = '66666666-0000-4000-8000-000000000006';
    await seedIncident(id, w.acme, cfg, monitorId, base + 70 * MIN);
    await w.t.app.ctx.db.insert(monitorStates).values({ monitorId, state: { alert: { incidentId: id } } });
    const ref = async () => (await w.call('GET', `/api/monitors/${monitorId}`, w.admin.access)).json().incident;
    expect(await ref()).toEqual({ id, opened_at: new Date(base + 70 * MIN).toISOString(), acknowledged_by: null });
    expect((await w.call('POST', `/api/incidents/${id}/ack`, w.admin.access)).statusCode).toBe(200);
    expect(await ref()).toMatchObject({ id, acknowledged_by: 'alice' });
});

it('tells an acknowledgement made with an API token from one made in the console', async () => {
    const id = '55555555-0000-4000-8000-000000000005';
    await seedIncident(id, w.acme, cfg, 9, base + 60 * MIN);
    const token = (await w.call('POST', '/api/tokens', w.admin.access, { name: 'pager bot', scope: 'write' })).json()
        .token;
    const res = await w.t.app.inject({
        method: 'POST',
        url: `/api/incidents/${id}/ack`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ acknowledged_by: 'alice', acknowledged_via: 'api' });
    const readOnly = (await w.call('POST', '/api/tokens', w.admin.access, { name: 'reader', scope: 'read' })).json()
        .token;
    expect((await w.call('POST', `/api/incidents/${id}/notes`, readOnly, { note: 'x' })).statusCode).toBe(403);
});

it('adds notes to open and closed incidents, in the timeline by author', async () => {
    expect(
        (await w.call('POST', `/api/incidents/${ids.closed}/notes`, w.admin.access, {})).json().errors
    ).toHaveProperty('note');
    expect(
        (await w.call('POST', `/api/incidents/${ids.closed}/notes`, w.admin.access, { note: '  ' })).statusCode
    ).toBe(400);
    const raw = (payload?: string) =>
        w.t.app.inject({
            method: 'POST',
            url: `/api/incidents/${ids.closed}/notes`,
            headers: { ...auth(w.admin.access), 'content-type': 'application/json' },
            payload,
        });
    expect((await raw()).statusCode).toBe(400);
    const broken = await raw('{"note":');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().errors).toEqual({ body: 'The body is not valid JSON' });
    const res = await w.call('POST', `/api/incidents/${ids.closed}/notes`, w.root.access, { note: 'Disk was full' });
    expect(res.statusCode).toBe(201);
    expect(res.json().timeline.at(-1)).toMatchObject({ kind: 'note', text: 'root: Disk was full' });
    const got = (await w.call('GET', `/api/incidents/${ids.closed}`, w.plain.access)).json();
    expect(got.timeline).toHaveLength(1);
});

it('edits a link’s escalate_after_minutes with PUT, named in a 400 when wrong', async () => {
    const url = `/api/configurations/${cfg}/notification-channels/${links.pager}`;
    for (const bad of [0, 1.5, 20_000, 'soon']) {
        const res = await w.call('PUT', url, w.admin.access, { escalate_after_minutes: bad });
        expect(res.statusCode).toBe(400);
        expect(Object.keys(res.json().errors)).toEqual(['escalate_after_minutes']);
    }
    expect((await w.call('PUT', url, w.admin.access, { escalate_after_minutes: 15 })).json()).toMatchObject({
        escalate_after_minutes: 15,
    });
    const listed = (await w.call('GET', `/api/configurations/${cfg}/notification-channels`, w.plain.access)).json();
    expect(listed.find((l: { id: number }) => l.id === links.pager)).toMatchObject({ escalate_after_minutes: 15 });
    expect(listed.find((l: { id: number }) => l.id === links.webhook).escalate_after_minutes).toBeUndefined();
    const cleared = (await w.call('PUT', url, w.admin.access, { escalate_after_minutes: null })).json();
    expect(cleared.escalate_after_minutes).toBeUndefined();
    expect((await w.call('PUT', url, w.plain.access, { escalate_after_minutes: 5 })).statusCode).toBe(403);
});
