import { createWorld, type World } from '../config-fixtures';

let w: World;
let cfg: number;
let srv: number;
let mon: number;
let otherCfg: number;
const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

beforeAll(async () => {
    w = await createWorld();
    cfg = await w.configuration(w.admin.access, { name: 'Hub' });
    srv = await w.server(w.admin.access, cfg, { name: 'val-1' });
    const res = await w.call('POST', '/api/monitors', w.admin.access, {
        name: 'disk',
        configuration_id: cfg,
        server_id: srv,
        type: 'nodeExporterDiskSpace',
        configuration_object: '{"threshold":90}',
    });
    mon = res.json().id;
    otherCfg = await w.configuration(w.other.access, { name: 'Globex hub' });
});
afterAll(() => w.t.close());

describe('POST /api/silences', () => {
    it('creates a silence that lists, marks the monitor, audits and fires an event', async () => {
        const res = await w.call('POST', '/api/silences', w.admin.access, {
            server_id: srv,
            ends_at: inHours(2),
            reason: 'Rebuilding the node',
        });
        expect(res.statusCode).toBe(201);
        const silence = res.json();
        expect(silence).toMatchObject({
            server_id: srv,
            monitor_id: null,
            configuration_id: null,
            target: { type: 'server', id: srv, name: 'val-1', configuration_id: cfg, configuration_name: 'Hub' },
            reason: 'Rebuilding the node',
            created_by: 'alice',
            active: true,
            ended_early: false,
        });
        const list = await w.call('GET', '/api/silences', w.plain.access);
        expect(list.json().results.map((s: { id: number }) => s.id)).toContain(silence.id);
        // The monitor on that server is marked, on its own page and in its configuration's list.
        const monitor = (await w.call('GET', `/api/monitors/${mon}`, w.plain.access)).json();
        expect(monitor.silenced_until).toBe(silence.ends_at);
        expect(monitor.silence_reason).toBe('Rebuilding the node');
        const inConfig = (await w.call('GET', `/api/configurations/${cfg}/monitors`, w.plain.access)).json();
        expect(inConfig[0].silenced_until).toBe(silence.ends_at);
        expect(w.events).toContainEqual({ name: 'SILENCE_CREATED', configurationId: cfg, serverId: srv });
        expect(await w.audit()).toContainEqual(
            expect.objectContaining({
                message: expect.stringMatching(
                    /^Silence of server "val-1" until .* UTC created by alice: Rebuilding the node$/
                ),
                companyId: w.acme,
                serverId: srv,
            })
        );

        // DELETE ends it now: gone from the list, the monitor unmarked, audited.
        const ended = await w.call('DELETE', `/api/silences/${silence.id}`, w.admin.access);
        expect(ended.statusCode).toBe(200);
        expect(ended.json()).toMatchObject({ id: silence.id, ended_early: true, active: false });
        expect((await w.call('GET', '/api/silences', w.plain.access)).json().results).toEqual([]);
        expect((await w.call('GET', `/api/monitors/${mon}`, w.plain.access)).json().silenced_until).toBeUndefined();
        expect((await w.audit()).map((a) => a.message)).toContain('Silence of server "val-1" ended by alice');
    });

    it('answers field-keyed 400s for bad input', async () => {
        const cases: [object, string][] = [
            [{ ends_at: inHours(1), reason: 'x' }, 'monitor_id'],
            [{ monitor_id: mon, server_id: srv, ends_at: inHours(1), reason: 'x' }, 'server_id'],
            [{ monitor_id: mon, ends_at: inHours(-1), reason: 'x' }, 'ends_at'],
            [{ monitor_id: mon, starts_at: inHours(3), ends_at: inHours(2), reason: 'x' }, 'ends_at'],
            [{ monitor_id: mon, ends_at: 'tomorrow', reason: 'x' }, 'ends_at'],
            [{ monitor_id: mon, ends_at: inHours(1) }, 'reason'],
            [{ monitor_id: mon, ends_at: inHours(1), reason: '   ' }, 'reason'],
            [{ monitor_id: mon, ends_at: inHours(1), reason: 'x'.repeat(501) }, 'reason'],
            [{ monitor_id: mon, ends_at: inHours(24 * 400), reason: 'x' }, 'ends_at'],
            [{ monitor_id: mon, ends_at: inHours(1), reason: 'x', colour: 'red' }, 'colour'],
            [{ monitor_id: 'abc', ends_at: inHours(1), reason: 'x' }, 'monitor_id'],
        ];
        for (const [body, field] of cases) {
            const res = await w.call('POST', '/api/silences', w.admin.access, body);
            expect(res.statusCode, JSON.stringify(body)).toBe(400);
            expect(Object.keys(res.json().errors), JSON.stringify(body)).toContain(field);
        }
    });

    it('keeps to the company: another company’s target or silence answers 404, plain users get 403', async () => {
        const foreign = await w.call('POST', '/api/silences', w.admin.access, {
            configuration_id: otherCfg,
            ends_at: inHours(1),
            reason: 'Not mine',
        });
        expect(foreign.statusCode).toBe(404);
        expect(foreign.json().errors).toHaveProperty('configuration_id');
        const theirs = await w.call('POST', '/api/silences', w.other.access, {
            configuration_id: otherCfg,
            ends_at: inHours(1),
            reason: 'Globex upgrade',
        });
        expect(theirs.statusCode).toBe(201);
        expect((await w.call('DELETE', `/api/silences/${theirs.json().id}`, w.admin.access)).statusCode).toBe(404);
        expect((await w.call('GET', '/api/silences', w.admin.access)).json().results).toEqual([]);
        // The super admin sees both companies' silences.
        expect((await w.call('GET', '/api/silences', w.root.access)).json().results).toHaveLength(1);

        const plain = await w.call('POST', '/api/silences', w.plain.access, {
            monitor_id: mon,
            ends_at: inHours(1),
            reason: 'Plain user',
        });
        expect(plain.statusCode).toBe(403);
        expect((await w.call('DELETE', `/api/silences/${theirs.json().id}`, w.plain.access)).statusCode).toBe(403);
    });
});

describe('/api/maintenance-windows', () => {
    it('creates, lists with the next occurrence, updates and deletes, audited', async () => {
        const body = { configuration_id: cfg, starts_at: inHours(24), ends_at: inHours(26), reason: 'Upgrade v19' };
        const res = await w.call('POST', '/api/maintenance-windows', w.admin.access, body);
        expect(res.statusCode).toBe(201);
        const win = res.json();
        expect(win).toMatchObject({
            configuration_id: cfg,
            server_id: null,
            repeat_weekly: false,
            active: false,
            next_starts_at: win.starts_at,
            target: { type: 'configuration', name: 'Hub' },
        });
        // Upcoming, not active: the monitor is not silenced yet.
        expect((await w.call('GET', `/api/monitors/${mon}`, w.plain.access)).json().silenced_until).toBeUndefined();
        const list = (await w.call('GET', '/api/maintenance-windows', w.plain.access)).json();
        expect(list.results.map((x: { id: number }) => x.id)).toEqual([win.id]);

        // Moved to now: active, and the monitor is marked.
        const put = await w.call('PUT', `/api/maintenance-windows/${win.id}`, w.admin.access, {
            ...win,
            starts_at: inHours(-1),
            ends_at: inHours(1),
        });
        expect(put.statusCode).toBe(200);
        expect(put.json()).toMatchObject({ active: true, reason: 'Upgrade v19' });
        const monitor = (await w.call('GET', `/api/monitors/${mon}`, w.plain.access)).json();
        expect(monitor.silenced_until).toBe(put.json().ends_at);
        expect(monitor.silence_reason).toBe('Upgrade v19');

        expect((await w.call('DELETE', `/api/maintenance-windows/${win.id}`, w.admin.access)).statusCode).toBe(200);
        expect((await w.call('GET', '/api/maintenance-windows', w.plain.access)).json().results).toEqual([]);
        const messages = (await w.audit()).map((a) => a.message);
        expect(
            messages.some((m) =>
                /^Maintenance window of configuration "Hub" \(.*\) created by alice: Upgrade v19$/.test(m)
            )
        ).toBe(true);
        expect(messages.some((m) => m.startsWith('Maintenance window of configuration "Hub" ('))).toBe(true);
        expect(messages).toContain('Maintenance window of configuration "Hub" deleted by alice');
    });

    it('repeats weekly: a window that began weeks ago is on again at the same weekday and time', async () => {
        const week = 7 * 24;
        const res = await w.call('POST', '/api/maintenance-windows', w.admin.access, {
            server_id: srv,
            starts_at: inHours(-3 * week - 1),
            ends_at: inHours(-3 * week + 1),
            repeat_weekly: true,
            reason: 'Weekly restart',
        });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({ active: true, repeat_weekly: true });
        expect(Date.parse(res.json().next_ends_at) - Date.now()).toBeGreaterThan(0);
        expect(Date.parse(res.json().next_ends_at) - Date.now()).toBeLessThanOrEqual(3600_000);
        expect((await w.call('GET', `/api/monitors/${mon}`, w.plain.access)).json().silence_reason).toBe(
            'Weekly restart'
        );
        await w.call('DELETE', `/api/maintenance-windows/${res.json().id}`, w.admin.access);
    });

    it('mutes the node-health monitors only by default, every monitor with mutes "all"', async () => {
        const jail = (
            await w.call('POST', '/api/monitors', w.admin.access, {
                name: 'active set',
                configuration_id: cfg,
                server_id: srv,
                type: 'validatorOutOfActiveSet',
                configuration_object: JSON.stringify({
                    valoper_address: 'cosmosvaloper1qurswpc8qurswpc8qurswpc8qurswpc8k8n0vj',
                }),
            })
        ).json().id as number;
        expect(jail).toBeGreaterThan(0);
        const marked = async (id: number) =>
            (await w.call('GET', `/api/monitors/${id}`, w.plain.access)).json().silence_reason ?? null;
        const body = { configuration_id: cfg, starts_at: inHours(-1), ends_at: inHours(1), reason: 'Restarting val-1' };
        const node = await w.call('POST', '/api/maintenance-windows', w.admin.access, body);
        expect(node.statusCode).toBe(201);
        expect(node.json().mutes).toBe('node');
        // The disk is the node's health; staying in the active set is validator duty, which still pages.
        expect(await marked(mon)).toBe('Restarting val-1');
        expect(await marked(jail)).toBeNull();

        const all = await w.call('PUT', `/api/maintenance-windows/${node.json().id}`, w.admin.access, {
            ...node.json(),
            mutes: 'all',
        });
        expect(all.json().mutes).toBe('all');
        expect(await marked(jail)).toBe('Restarting val-1');
        expect(
            (await w.call('POST', '/api/maintenance-windows', w.admin.access, { ...body, mutes: 'some' })).json().errors
        ).toEqual({ mutes: 'mutes must be "node" or "all"' });
        await w.call('DELETE', `/api/maintenance-windows/${node.json().id}`, w.admin.access);
        await w.call('DELETE', `/api/monitors/${jail}`, w.admin.access);
    });

    it('ends an ongoing window now with POST …/end, audited; a window not on answers 409', async () => {
        const on = (
            await w.call('POST', '/api/maintenance-windows', w.admin.access, {
                configuration_id: cfg,
                starts_at: inHours(-1),
                ends_at: inHours(2),
                reason: 'Node swap',
            })
        ).json();
        expect((await w.call('POST', `/api/maintenance-windows/${on.id}/end`, w.plain.access)).statusCode).toBe(403);
        const before = Date.now();
        const ended = await w.call('POST', `/api/maintenance-windows/${on.id}/end`, w.admin.access);
        expect(ended.statusCode).toBe(200);
        expect(ended.json()).toMatchObject({ id: on.id, active: false, starts_at: on.starts_at });
        expect(Date.parse(ended.json().ends_at)).toBeGreaterThanOrEqual(before - 1000);
        expect(Date.parse(ended.json().ends_at)).toBeLessThanOrEqual(Date.now());
        expect((await w.call('GET', `/api/monitors/${mon}`, w.plain.access)).json().silenced_until).toBeUndefined();
        expect((await w.audit()).map((a) => a.message)).toContain(
            'Maintenance window of configuration "Hub" ended early by alice'
        );
        const again = await w.call('POST', `/api/maintenance-windows/${on.id}/end`, w.admin.access);
        expect(again.statusCode).toBe(409);
        expect(again.json().message).toBe('The maintenance window is not on now');
        const theirs = (
            await w.call('POST', '/api/maintenance-windows', w.other.access, {
                configuration_id: otherCfg,
                starts_at: inHours(-1),
                ends_at: inHours(1),
                reason: 'Theirs',
            })
        ).json();
        expect((await w.call('POST', `/api/maintenance-windows/${theirs.id}/end`, w.admin.access)).statusCode).toBe(
            404
        );
    });

    it('answers field-keyed 400s, 404 across companies and 403 for plain users', async () => {
        const cases: [object, string][] = [
            [{ starts_at: inHours(1), ends_at: inHours(2), reason: 'x' }, 'configuration_id'],
            [
                { configuration_id: cfg, server_id: srv, starts_at: inHours(1), ends_at: inHours(2), reason: 'x' },
                'server_id',
            ],
            [{ configuration_id: cfg, starts_at: inHours(2), ends_at: inHours(1), reason: 'x' }, 'ends_at'],
            [{ configuration_id: cfg, starts_at: inHours(-3), ends_at: inHours(-2), reason: 'x' }, 'ends_at'],
            [
                {
                    configuration_id: cfg,
                    starts_at: inHours(1),
                    ends_at: inHours(200),
                    repeat_weekly: true,
                    reason: 'x',
                },
                'ends_at',
            ],
            [{ configuration_id: cfg, starts_at: inHours(1), ends_at: inHours(2), reason: '' }, 'reason'],
            [
                {
                    configuration_id: cfg,
                    starts_at: inHours(1),
                    ends_at: inHours(2),
                    reason: 'x',
                    repeat_weekly: 'yes',
                },
                'repeat_weekly',
            ],
            [{ monitor_id: mon, starts_at: inHours(1), ends_at: inHours(2), reason: 'x' }, 'monitor_id'],
        ];
        for (const [body, field] of cases) {
            const res = await w.call('POST', '/api/maintenance-windows', w.admin.access, body);
            expect(res.statusCode, JSON.stringify(body)).toBe(400);
            expect(Object.keys(res.json().errors), JSON.stringify(body)).toContain(field);
        }
        const body = { configuration_id: otherCfg, starts_at: inHours(1), ends_at: inHours(2), reason: 'Theirs' };
        expect((await w.call('POST', '/api/maintenance-windows', w.admin.access, body)).statusCode).toBe(404);
        const theirs = (await w.call('POST', '/api/maintenance-windows', w.other.access, body)).json();
        expect((await w.call('PUT', `/api/maintenance-windows/${theirs.id}`, w.admin.access, body)).statusCode).toBe(
            404
        );
        expect((await w.call('DELETE', `/api/maintenance-windows/${theirs.id}`, w.admin.access)).statusCode).toBe(404);
        const mine = { ...body, configuration_id: cfg };
        expect((await w.call('POST', '/api/maintenance-windows', w.plain.access, mine)).statusCode).toBe(403);
        expect((await w.call('DELETE', `/api/maintenance-windows/${theirs.id}`, w.plain.access)).statusCode).toBe(403);
    });
});
