import { eq } from 'drizzle-orm';
import { configurations, monitors, servers } from '../../server/db/schema';
import { createWorld, type World } from './config-fixtures';

let w: World;
let cfg: number;
let srv: number;
const VALOPER = 'cosmosvaloper1qurswpc8qurswpc8qurswpc8qurswpc8k8n0vj';

beforeAll(async () => {
    // These tests play the engine, writing health straight to the table, and read it back at once.
    w = await createWorld({ answerCacheMs: 0 });
    cfg = await w.configuration(w.admin.access, { name: 'Hub' });
    srv = await w.server(w.admin.access, cfg, { name: 'val' });
});
afterAll(() => w.t.close());

const post = (body: object, token = w.admin.access) => w.call('POST', '/api/monitors', token, body);
const base = () => ({
    name: 'm',
    configuration_id: cfg,
    server_id: srv,
    type: 'blockCheck',
    configuration_object: '{}',
});

describe('monitors CRUD', () => {
    it('creates healthy and unchecked, with defaults filled in and stored normalised', async () => {
        const res = await post({
            ...base(),
            name: 'sign',
            type: 'signMissCheck',
            configuration_object: JSON.stringify({ valoper_address: VALOPER, miss_tolerance: '20' }),
        });
        expect(res.statusCode).toBe(201);
        const m = res.json();
        expect(m).toMatchObject({
            name: 'sign',
            type: 'signMissCheck',
            is_enabled: true,
            configuration_id: cfg,
            server_id: srv,
            status: true,
            last_error: null,
            last_check: null,
            server: { id: srv, name: 'val', address: 'http://10.0.0.5' },
            configuration: { id: cfg, name: 'Hub', chain: 'cosmoshub' },
        });
        expect(JSON.parse(m.configuration_object)).toEqual({
            miss_tolerance: 20,
            miss_tolerance_period_seconds: 100,
            sleep_duration_seconds: 5,
            alert_sleep_duration_minutes: 1,
            valoper_address: VALOPER,
        });
        expect((await w.call('GET', `/api/monitors/${m.id}`, w.plain.access)).json()).toEqual(m);
        expect(w.events).toContainEqual({
            name: 'MONITOR_CREATED',
            configurationId: cfg,
            serverId: srv,
            monitorId: m.id,
        });
        expect(await w.audit()).toContainEqual({
            message: 'Monitor "sign" created by alice',
            companyId: w.acme,
            configurationId: cfg,
            serverId: srv,
            monitorId: m.id,
        });
    });

    it('updates with the id in the payload, keeps engine fields, deletes', async () => {
        const m = (await post(base())).json();
        await w.t.app.ctx.db.update(monitors).set({ status: false, lastError: 'halted' }).where(eq(monitors.id, m.id));
        const put = await w.call('PUT', `/api/monitors/${m.id}`, w.admin.access, {
            id: m.id,
            name: 'renamed',
            is_enabled: false,
            configuration_id: cfg,
            server_id: srv,
            type: 'blockCheck',
            configuration_object: '{"miss_tolerance":3}',
        });
        expect(put.statusCode).toBe(200);
        expect(put.json()).toMatchObject({ name: 'renamed', is_enabled: false, status: false, last_error: 'halted' });
        expect(JSON.parse(put.json().configuration_object).miss_tolerance).toBe(3);
        const sneaky = await w.call('PUT', `/api/monitors/${m.id}`, w.admin.access, {
            ...base(),
            name: 'renamed',
            status: true,
            last_error: null,
        });
        // The engine's fields may be echoed back by a client, but are never taken from it.
        expect(sneaky.statusCode).toBe(200);
        expect(sneaky.json()).toMatchObject({ status: false, last_error: 'halted' });
        expect((await w.call('DELETE', `/api/monitors/${m.id}`, w.admin.access)).statusCode).toBe(200);
        expect((await w.call('GET', `/api/monitors/${m.id}`, w.admin.access)).statusCode).toBe(404);
        expect(w.events).toContainEqual(expect.objectContaining({ name: 'MONITOR_UPDATED', monitorId: m.id }));
        expect(w.events).toContainEqual(expect.objectContaining({ name: 'MONITOR_DELETED', monitorId: m.id }));
        const messages = (await w.audit()).map((a) => a.message);
        expect(messages).toEqual(
            expect.arrayContaining(['Monitor "renamed" updated by alice', 'Monitor "renamed" deleted by alice'])
        );
    });

    it('allows a urlCheck without a server', async () => {
        const res = await post({
            ...base(),
            type: 'urlCheck',
            server_id: null,
            configuration_object: '{"address":"https://example.com"}',
        });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({ server_id: null, server: null });
        expect(JSON.parse(res.json().configuration_object)).toEqual({
            address: 'https://example.com',
            allowed_attempts: 3,
        });
    });
});

describe('monitor validation', () => {
    it.each([
        [{ type: undefined }, 'type', 'Please select a type!'],
        [{ type: 'pingCheck' }, 'type', 'Please select a type!'],
        [{ type: 'blockCheck', server_id: null }, 'server_id', 'Please select a server!'],
        [{ type: 'nodeExporterDiskSpace', server_id: '' }, 'server_id', 'Please select a server!'],
        [{ name: '' }, 'name', 'Name is required'],
        [{ configuration_object: '{"miss_tolerance":0}' }, 'miss_tolerance', 'Miss Tolerance must be at least 1'],
        [{ configuration_object: '{nope' }, 'configuration_object', 'configuration_object must be valid JSON'],
        [{ configuration_object: '{"colour":"red"}' }, 'colour', 'Unknown setting for blockCheck'],
        [{ type: 'signMissCheck' }, 'valoper_address', 'Validator Operator Address is required'],
        [
            { type: 'signMissCheck', configuration_object: '{"valoper_address":"cosmos1xyz"}' },
            'valoper_address',
            'Validator Operator Address must be a bech32 valoper address',
        ],
        [
            { type: 'urlCheck', server_id: null, configuration_object: '{"address":"ftp://x"}' },
            'address',
            'Address must be an http(s) URL',
        ],
        [
            { type: 'urlCheck', server_id: null, configuration_object: '{"address":"http://169.254.169.254/"}' },
            'address',
            'Address must not point at a cloud metadata or link-local address',
        ],
        [{ configuration_id: 999999 }, 'configuration_id', 'Configuration not found'],
        [{ server_id: 999999 }, 'server_id', 'Server not found'],
    ])('refuses %j naming %s', async (patch, field, text) => {
        const res = await post({ ...base(), ...patch });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors[field]).toBe(text);
    });

    it('takes a disk threshold from 0 (where the form starts) to 100, with decimals', async () => {
        const disk = (threshold: unknown) =>
            post({ ...base(), type: 'nodeExporterDiskSpace', configuration_object: JSON.stringify({ threshold }) });
        for (const threshold of [0, 92.5, 100]) {
            const res = await disk(threshold);
            expect(res.statusCode).toBe(201);
            expect(JSON.parse(res.json().configuration_object).threshold).toBe(threshold);
        }
        expect((await disk(100.5)).json().errors.threshold).toBe('Threshold (%) must be at most 100');
        expect((await disk(-1)).json().errors.threshold).toBe('Threshold (%) must be at least 0');
    });

    it('saves a price feeder monitor on a chain with no known oracle path, with a warning in the answer', async () => {
        const price = (configuration_id: number, settings: object = {}) => ({
            ...base(),
            configuration_id,
            name: 'oracle',
            type: 'priceFeederMissCount',
            configuration_object: JSON.stringify({ valoper_address: VALOPER, ...settings }),
        });
        // cosmoshub has no oracle module.
        const res = await post(price(cfg));
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json().warnings).toEqual([
            expect.stringContaining('No oracle miss-counter path is known for chain cosmoshub'),
        ]);
        expect(res.json().warnings[0]).toContain('set oracle_path');
        // Saved all the same, and a read carries no warning (it is said at save).
        const id = res.json().id;
        expect((await w.call('GET', `/api/monitors/${id}`, w.admin.access)).json().warnings).toBeUndefined();
        // Setting the path on edit answers without one.
        const fixed = await w.call('PUT', `/api/monitors/${id}`, w.admin.access, {
            ...price(cfg, { oracle_path: '/my/oracle/{valoper}/miss' }),
        });
        expect(fixed.statusCode).toBe(200);
        expect(fixed.json()).not.toHaveProperty('warnings');
        const edited = await w.call('PUT', `/api/monitors/${id}`, w.admin.access, price(cfg));
        expect(edited.json().warnings).toHaveLength(1);
        // A chain with a known path, and other monitor types, answer without warnings.
        const umee = await w.configuration(w.admin.access, { name: 'Umee', chain: 'umee' });
        const umeeServer = await w.server(w.admin.access, umee, { name: 'umee-val', address: 'http://10.0.0.9' });
        const onUmee = await post({
            ...price(umee, { valoper_address: 'umeevaloper1qurswpc8qurswpc8qurswpc8qurswpc8ppa24e' }),
            server_id: umeeServer,
        });
        expect(onUmee.statusCode, onUmee.body).toBe(201);
        expect(onUmee.json()).not.toHaveProperty('warnings');
        const block = await post(base());
        expect(block.statusCode).toBe(201);
        expect(block.json()).not.toHaveProperty('warnings');
    });

    it('refuses a server of another configuration', async () => {
        const other = await w.configuration(w.admin.access, { name: 'Other' });
        const res = await post({ ...base(), configuration_id: other });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors.server_id).toBe('The server must belong to the same configuration');
    });
});

describe('dashboard lists', () => {
    it('lists failed and warning monitors of enabled monitors, servers and configurations, with refs', async () => {
        const c = await w.configuration(w.admin.access, { name: 'Dash' });
        const s = await w.server(w.admin.access, c, { name: 'dash-srv', address: 'http://10.9.9.9' });
        const mk = async (name: string, patch: Partial<typeof monitors.$inferInsert>, extra: object = {}) => {
            const id = (await post({ ...base(), name, configuration_id: c, server_id: s, ...extra })).json().id;
            await w.t.app.ctx.db.update(monitors).set(patch).where(eq(monitors.id, id));
            return id as number;
        };
        const failed = await mk('failed', { status: false, lastError: 'halted', lastCheck: new Date() });
        const warn = await mk('warn', { status: true, lastError: 'slow' });
        await mk('ok', { status: true, lastError: null });
        await mk('blank', { status: true, lastError: '' });
        await mk('off', { status: false }, { is_enabled: false });
        const failedIds = (await w.call('GET', '/api/monitors/failed', w.plain.access)).json();
        expect(failedIds.map((m: { id: number }) => m.id)).toEqual([failed]);
        expect(failedIds[0]).toMatchObject({
            status: false,
            last_error: 'halted',
            server: { id: s, name: 'dash-srv', address: 'http://10.9.9.9' },
            configuration: { id: c, name: 'Dash', chain: 'cosmoshub' },
        });
        expect(typeof failedIds[0].last_check).toBe('string');
        const warnings = (await w.call('GET', '/api/monitors/warnings', w.plain.access)).json();
        expect(warnings.map((m: { id: number }) => m.id)).toEqual([warn]);
        expect((await w.call('GET', '/api/monitors/failed', w.other.access)).json()).toEqual([]);
        await w.t.app.ctx.db.update(servers).set({ isEnabled: false }).where(eq(servers.id, s));
        expect((await w.call('GET', '/api/monitors/failed', w.plain.access)).json()).toEqual([]);
        await w.t.app.ctx.db.update(servers).set({ isEnabled: true }).where(eq(servers.id, s));
        await w.t.app.ctx.db.update(configurations).set({ isEnabled: false }).where(eq(configurations.id, c));
        expect((await w.call('GET', '/api/monitors/warnings', w.plain.access)).json()).toEqual([]);
    });

    // Speed is measured by `npm run bench:api`; this asserts the right rows come back from a large table.
    // Inserting 20,000 rows took 17 s of the default 30 in CI, beside the other passes.
    it('lists the failed and warning monitors among 20,000', { timeout: 90_000 }, async () => {
        const c = await w.configuration(w.admin.access, { name: 'Bulk' });
        const s = await w.server(w.admin.access, c, { name: 'bulk' });
        const rows = Array.from({ length: 20_000 }, (_, i) => ({
            configurationId: c,
            serverId: s,
            name: `bulk-${i}`,
            type: 'blockCheck' as const,
            configurationObject: '{}',
            status: i % 100 !== 0,
            lastError: i % 50 === 1 ? 'slow' : null,
        }));
        for (let i = 0; i < rows.length; i += 2000)
            await w.t.app.ctx.db.insert(monitors).values(rows.slice(i, i + 2000));
        const res = await w.call('GET', '/api/monitors/failed', w.admin.access);
        expect(res.json().filter((m: { configuration_id: number }) => m.configuration_id === c)).toHaveLength(200);
        const warnings = await w.call('GET', '/api/monitors/warnings', w.admin.access);
        expect(warnings.json().filter((m: { configuration_id: number }) => m.configuration_id === c)).toHaveLength(400);
    });
});

describe('validator duty monitor types', () => {
    it.each([
        [
            'slashingWindow',
            { valoper_address: VALOPER },
            {
                valoper_address: VALOPER,
                warning_percent: 25,
                error_percent: 50,
                sleep_duration_seconds: 30,
                alert_sleep_duration_minutes: 30,
            },
        ],
        [
            'governanceVote',
            { valoper_address: VALOPER },
            {
                valoper_address: VALOPER,
                warning_hours_before_end: 72,
                error_hours_before_end: 24,
                sleep_duration_seconds: 300,
                alert_sleep_duration_minutes: 360,
            },
        ],
        ['upgradeWatch', {}, { sleep_duration_seconds: 60, alert_sleep_duration_minutes: 30, grace_minutes: 30 }],
        [
            'validatorOutOfActiveSet',
            { valoper_address: VALOPER, rank_warning_margin: '' },
            { valoper_address: VALOPER, alert_sleep_duration_minutes: 60, sleep_duration_seconds: 60 },
        ],
        [
            'validatorOutOfActiveSet',
            { valoper_address: VALOPER, rank_warning_margin: 8 },
            {
                valoper_address: VALOPER,
                alert_sleep_duration_minutes: 60,
                sleep_duration_seconds: 60,
                rank_warning_margin: 8,
            },
        ],
    ])('%s is created with its defaults', async (type, settings, stored) => {
        const res = await post({ ...base(), type, configuration_object: JSON.stringify(settings) });
        expect(res.statusCode).toBe(201);
        expect(JSON.parse(res.json().configuration_object)).toEqual(stored);
    });

    it.each([
        [
            'slashingWindow',
            { valoper_address: VALOPER, error_percent: 101 },
            'error_percent',
            'Error (% of jail budget) must be at most 100',
        ],
        ['governanceVote', {}, 'valoper_address', 'Validator Operator Address is required'],
        ['upgradeWatch', { grace_minutes: 0 }, 'grace_minutes', 'Grace (minutes) must be at least 1'],
        [
            'validatorOutOfActiveSet',
            { valoper_address: VALOPER, rank_warning_margin: 'x' },
            'rank_warning_margin',
            'Rank Warning Margin (seats) must be a number',
        ],
    ])('%s refuses %j naming %s', async (type, settings, field, text) => {
        const res = await post({ ...base(), type, configuration_object: JSON.stringify(settings) });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors[field]).toBe(text);
    });
});
