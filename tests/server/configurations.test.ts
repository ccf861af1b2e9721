import { eq } from 'drizzle-orm';
import { configurationChannels, monitors, servers, services } from '../../server/db/schema';
import { createWorld, type World } from './config-fixtures';

let w: World;
beforeAll(async () => {
    w = await createWorld();
});
afterAll(() => w.t.close());

describe('configurations CRUD', () => {
    it('creates in the admin company, enabled by default, with nested company, servers and monitors', async () => {
        const res = await w.call('POST', '/api/configurations', w.admin.access, { name: 'Hub', chain: 'cosmoshub' });
        expect(res.statusCode).toBe(201);
        const c = res.json();
        expect(c).toMatchObject({
            name: 'Hub',
            chain: 'cosmoshub',
            is_enabled: true,
            company: { id: w.acme, name: 'Acme' },
            company_id: w.acme,
            servers: [],
            monitors: [],
        });
        expect(new Date(c.createdAt).getTime()).not.toBeNaN();
        expect(new Date(c.updatedAt).getTime()).not.toBeNaN();
        expect(w.events).toContainEqual({ name: 'CONFIGURATION_CREATED', configurationId: c.id });
        expect(await w.audit()).toContainEqual(
            expect.objectContaining({
                message: 'Configuration "Hub" created by alice',
                companyId: w.acme,
                configurationId: c.id,
            })
        );
    });

    it('reads, updates and lists with servers and monitors nested', async () => {
        const id = await w.configuration(w.admin.access, { name: 'Osmo', chain: 'osmosis' });
        const serverId = await w.server(w.admin.access, id);
        const m = await w.call('POST', '/api/monitors', w.admin.access, {
            name: 'blocks',
            configuration_id: id,
            server_id: serverId,
            type: 'blockCheck',
            configuration_object: '{}',
        });
        expect(m.statusCode).toBe(201);
        const put = await w.call('PUT', `/api/configurations/${id}`, w.admin.access, {
            name: 'Osmosis',
            chain: 'osmosis',
            is_enabled: false,
        });
        expect(put.statusCode).toBe(200);
        expect(put.json()).toMatchObject({ id, name: 'Osmosis', is_enabled: false });
        const one = (await w.call('GET', `/api/configurations/${id}`, w.plain.access)).json();
        expect(one.servers).toHaveLength(1);
        expect(one.servers[0]).toMatchObject({ id: serverId, name: expect.any(String) });
        // Each monitor is listed once, at the configuration level, naming its server.
        expect(one.servers[0]).not.toHaveProperty('monitors');
        expect(one.monitors[0]).toMatchObject({
            name: 'blocks',
            status: true,
            last_error: null,
            last_check: null,
            server: { id: serverId, name: 'node-1', address: 'http://10.0.0.5' },
        });
        const list = await w.call('GET', '/api/configurations', w.plain.access);
        expect(Array.isArray(list.json())).toBe(true);
        expect(list.headers['content-range']).toBeUndefined();
        expect(list.json().find((c: { id: number }) => c.id === id).monitors).toHaveLength(1);
        expect((await w.call('GET', `/api/configurations/${id}/servers`, w.plain.access)).json()).toHaveLength(1);
        expect((await w.call('GET', `/api/configurations/${id}/monitors`, w.plain.access)).json()).toHaveLength(1);
        expect(w.events).toContainEqual({ name: 'CONFIGURATION_UPDATED', configurationId: id });
    });

    it('names, in a page and in the whole list, each monitor’s server and configuration and each server’s configuration', async () => {
        const id = await w.configuration(w.admin.access, { name: 'Juno', chain: 'juno' });
        const serverId = await w.server(w.admin.access, id);
        const add = (name: string, type: string, server_id: number | null) =>
            w.call('POST', '/api/monitors', w.admin.access, {
                name,
                configuration_id: id,
                server_id,
                type,
                configuration_object: type === 'urlCheck' ? JSON.stringify({ address: 'http://10.0.0.9' }) : '{}',
            });
        expect((await add('height', 'blockCheck', serverId)).statusCode).toBe(201);
        expect((await add('status page', 'urlCheck', null)).statusCode).toBe(201);
        const ref = { id, name: 'Juno', chain: 'juno' };
        const page = await w.call(
            'GET',
            `/api/configurations?sort=["id","DESC"]&range=[0,0]&filter={"q":"Juno"}`,
            w.plain.access
        );
        expect(page.headers['content-range']).toBe('configurations 0-0/1');
        const whole = (await w.call('GET', '/api/configurations', w.plain.access))
            .json()
            .find((c: { id: number }) => c.id === id);
        for (const c of [page.json()[0], whole]) {
            expect(c.servers).toEqual([
                expect.objectContaining({ id: serverId, configuration_id: id, configuration: ref }),
            ]);
            expect(c.monitors).toEqual([
                expect.objectContaining({
                    name: 'height',
                    server_id: serverId,
                    server: { id: serverId, name: 'node-1', address: 'http://10.0.0.5' },
                    configuration: ref,
                }),
                expect.objectContaining({ name: 'status page', server_id: null, server: null, configuration: ref }),
            ]);
        }
    });

    it('accepts the fields react-admin echoes back on update', async () => {
        const id = await w.configuration(w.admin.access);
        const record = (await w.call('GET', `/api/configurations/${id}`, w.admin.access)).json();
        const res = await w.call('PUT', `/api/configurations/${id}`, w.admin.access, { ...record, name: 'Renamed' });
        expect(res.statusCode).toBe(200);
        expect(res.json().name).toBe('Renamed');
    });

    it.each([
        [{ chain: 'x' }, 'name', 'Name is required'],
        [{ name: '  ', chain: 'x' }, 'name', 'Name is required'],
        [{ name: 'x' }, 'chain', 'Chain is required'],
        [{ name: 'x', chain: '' }, 'chain', 'Chain is required'],
        [{ name: 'x', chain: 'y', owner: 1 }, 'owner', 'Unknown field owner'],
    ])('refuses %j naming %s', async (payload, field, text) => {
        const res = await w.call('POST', '/api/configurations', w.admin.access, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().errors[field]).toBe(text);
    });

    it('deletes servers, services, monitors and channel links with the configuration, audited', async () => {
        const id = await w.configuration(w.admin.access, { name: 'Doomed' });
        const serverId = await w.server(w.admin.access, id);
        await w.call('POST', '/api/services', w.admin.access, {
            name: 'rpc',
            type: 'rpc',
            address: 'http://10.0.0.5:26657',
            server_id: serverId,
        });
        await w.call('POST', '/api/monitors', w.admin.access, {
            name: 'url',
            configuration_id: id,
            server_id: null,
            type: 'urlCheck',
            configuration_object: JSON.stringify({ address: 'http://10.0.0.5:26657' }),
        });
        const ch = await w.call('POST', '/api/notification-channels', w.admin.access, {
            name: 'ops',
            type: 'telegram',
            configuration_object: { bot_token: '123:abc', chat_id: '-100' },
        });
        const link = await w.call('POST', `/api/configurations/${id}/notification-channels`, w.admin.access, {
            configuration_id: id,
            notification_channel_id: ch.json().id,
        });
        expect(link.statusCode).toBe(201);
        const res = await w.call('DELETE', `/api/configurations/${id}`, w.admin.access);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ id, name: 'Doomed' });
        const db = w.t.app.ctx.db;
        expect(await db.select().from(servers).where(eq(servers.configurationId, id))).toHaveLength(0);
        expect(await db.select().from(services).where(eq(services.serverId, serverId))).toHaveLength(0);
        expect(await db.select().from(monitors).where(eq(monitors.configurationId, id))).toHaveLength(0);
        expect(
            await db.select().from(configurationChannels).where(eq(configurationChannels.configurationId, id))
        ).toHaveLength(0);
        expect((await w.call('GET', `/api/configurations/${id}`, w.admin.access)).statusCode).toBe(404);
        expect(w.events).toContainEqual({ name: 'CONFIGURATION_DELETED', configurationId: id });
        expect((await w.audit()).map((a) => a.message)).toContain('Configuration "Doomed" deleted by alice');
    });
});

describe('configuration list filters', () => {
    let healthy: number;
    let warning: number;
    let failing: number;
    let disabled: number;
    beforeAll(async () => {
        healthy = await w.configuration(w.admin.access, { name: 'F-healthy', chain: 'juno' });
        warning = await w.configuration(w.admin.access, { name: 'F-warning', chain: 'juno' });
        failing = await w.configuration(w.admin.access, { name: 'F-failing', chain: 'Akash' });
        disabled = await w.configuration(w.admin.access, { name: 'F-disabled', chain: 'juno', is_enabled: false });
        const mk = async (configuration_id: number) =>
            (
                await w.call('POST', '/api/monitors', w.admin.access, {
                    name: 'u',
                    configuration_id,
                    type: 'urlCheck',
                    configuration_object: JSON.stringify({ address: 'http://10.1.1.1' }),
                })
            ).json().id as number;
        await mk(healthy);
        const wm = await mk(warning);
        const fm = await mk(failing);
        await w.t.app.ctx.db.update(monitors).set({ lastError: 'slow' }).where(eq(monitors.id, wm));
        await w.t.app.ctx.db.update(monitors).set({ status: false, lastError: 'down' }).where(eq(monitors.id, fm));
    });
    const ids = async (filter: object, token = w.admin.access) =>
        (await w.call('GET', `/api/configurations?filter=${encodeURIComponent(JSON.stringify(filter))}`, token))
            .json()
            .map((c: { id: number }) => c.id) as number[];

    it('filters by q on name or chain, case-insensitive', async () => {
        expect(await ids({ q: 'f-HEALTHY' })).toEqual([healthy]);
        expect(await ids({ q: 'akash' })).toEqual([failing]);
    });
    it('filters by status', async () => {
        const q = { q: 'F-' };
        expect(await ids({ ...q, status: 'error' })).toEqual([failing]);
        expect(await ids({ ...q, status: 'warning' })).toEqual([warning]);
        expect(await ids({ ...q, status: 'healthy' })).toEqual([healthy, disabled]);
    });
    it('filters by is_enabled and company', async () => {
        expect(await ids({ q: 'F-', is_enabled: false })).toEqual([disabled]);
        expect(await ids({ q: 'F-', is_enabled: true })).toHaveLength(3);
        expect(await ids({ q: 'F-', company_id: w.globex }, w.root.access)).toEqual([]);
        expect(await ids({ q: 'F-', company_id: w.acme }, w.root.access)).toHaveLength(4);
    });
    it('sorts and pages with Content-Range', async () => {
        const filter = encodeURIComponent(JSON.stringify({ q: 'F-' }));
        const res = await w.call(
            'GET',
            `/api/configurations?filter=${filter}&sort=["name","ASC"]&range=[0,1]`,
            w.admin.access
        );
        expect(res.headers['content-range']).toBe('configurations 0-1/4');
        expect(res.json().map((c: { name: string }) => c.name)).toEqual(['F-disabled', 'F-failing']);
    });
});

describe('channel links', () => {
    let cfg: number;
    let channel: number;
    beforeAll(async () => {
        cfg = await w.configuration(w.admin.access, { name: 'Linked' });
        const res = await w.call('POST', '/api/notification-channels', w.admin.access, {
            name: 'alerts',
            type: 'telegram',
            configuration_object: JSON.stringify({ bot_token: '123:secret', chat_id: '42' }),
            is_enabled: true,
        });
        channel = res.json().id;
    });

    it('links, lists, refuses duplicates with 409 and unlinks', async () => {
        const url = `/api/configurations/${cfg}/notification-channels`;
        const res = await w.call('POST', url, w.admin.access, {
            configuration_id: cfg,
            notification_channel_id: channel,
        });
        expect(res.statusCode).toBe(201);
        const link = res.json();
        expect(link).toMatchObject({
            configuration_id: cfg,
            notification_channel_id: channel,
            notification_channel: { id: channel, type: 'telegram', name: 'alerts', is_enabled: true },
        });
        expect(w.events).toContainEqual({
            name: 'NOTIFICATION_CHANNEL_ASSOCIATED',
            configurationId: cfg,
            channelId: channel,
        });
        const dup = await w.call('POST', url, w.admin.access, {
            configuration_id: cfg,
            notification_channel_id: channel,
        });
        expect(dup.statusCode).toBe(409);
        expect(dup.json().message).toBe('This notification channel is already associated with this configuration');
        const list = await w.call('GET', url, w.plain.access);
        expect(list.json()).toEqual([link]);
        expect(list.body).not.toContain('secret');
        const del = await w.call('DELETE', `${url}/${link.id}`, w.admin.access);
        expect(del.statusCode).toBe(200);
        expect(w.events).toContainEqual({
            name: 'NOTIFICATION_CHANNEL_DISASSOCIATED',
            configurationId: cfg,
            channelId: channel,
        });
        expect((await w.call('GET', url, w.admin.access)).json()).toEqual([]);
        expect((await w.call('DELETE', `${url}/${link.id}`, w.admin.access)).statusCode).toBe(404);
        const messages = (await w.audit()).map((a) => a.message);
        expect(messages).toContain('Notification channel "alerts" associated with configuration "Linked" by alice');
        expect(messages).toContain('Notification channel "alerts" removed from configuration "Linked" by alice');
    });

    it('requires a channel selection and a matching configuration id', async () => {
        const url = `/api/configurations/${cfg}/notification-channels`;
        const none = await w.call('POST', url, w.admin.access, { configuration_id: cfg });
        expect(none.json().errors.notification_channel_id).toBe('Please select a notification channel');
        const other = await w.call('POST', url, w.admin.access, {
            configuration_id: cfg + 1000,
            notification_channel_id: channel,
        });
        expect(other.statusCode).toBe(400);
    });
});
