import { eq } from 'drizzle-orm';
import { monitors, services } from '../../server/db/schema';
import { createWorld, type World } from './config-fixtures';

let w: World;
let cfg: number;
beforeAll(async () => {
    w = await createWorld();
    cfg = await w.configuration(w.admin.access, { name: 'Hub' });
});
afterAll(() => w.t.close());

describe('servers', () => {
    it('creates enabled by default, reads with configuration and monitors, updates, audits and fires events', async () => {
        const res = await w.call('POST', '/api/servers', w.admin.access, {
            name: 'val-1',
            address: 'https://val-1.example.com',
            configuration_id: cfg,
        });
        expect(res.statusCode).toBe(201);
        const id = res.json().id;
        expect(res.json()).toMatchObject({ name: 'val-1', is_enabled: true, configuration_id: cfg, monitors: [] });
        await w.call('POST', '/api/monitors', w.admin.access, {
            name: 'disk',
            configuration_id: cfg,
            server_id: id,
            type: 'nodeExporterDiskSpace',
            configuration_object: '{"threshold":90}',
        });
        const one = (await w.call('GET', `/api/servers/${id}`, w.plain.access)).json();
        expect(one).toMatchObject({
            id,
            configuration_id: cfg,
            configuration: { id: cfg, name: 'Hub', chain: 'cosmoshub' },
            monitors: [{ name: 'disk', type: 'nodeExporterDiskSpace' }],
        });
        expect(typeof one.createdAt).toBe('string');
        expect((await w.call('GET', `/api/servers/${id}/monitors`, w.plain.access)).json()).toHaveLength(1);
        const put = await w.call('PUT', `/api/servers/${id}`, w.admin.access, {
            ...one,
            name: 'val-1b',
            is_enabled: false,
        });
        expect(put.statusCode).toBe(200);
        expect(put.json()).toMatchObject({ name: 'val-1b', is_enabled: false });
        expect((await w.call('GET', '/api/servers', w.plain.access)).json().map((s: { id: number }) => s.id)).toContain(
            id
        );
        expect(w.events).toContainEqual({ name: 'SERVER_CREATED', configurationId: cfg, serverId: id });
        expect(w.events).toContainEqual({ name: 'SERVER_UPDATED', configurationId: cfg, serverId: id });
        expect(await w.audit()).toContainEqual({
            message: 'Server "val-1" created by alice',
            companyId: w.acme,
            configurationId: cfg,
            serverId: id,
            monitorId: null,
        });
    });

    it('deletes its services and monitors with it', async () => {
        const id = await w.server(w.admin.access, cfg, { name: 'gone' });
        await w.call('POST', '/api/services', w.admin.access, {
            name: 'rpc',
            type: 'rpc',
            address: 'http://10.0.0.5:26657',
            server_id: id,
        });
        await w.call('POST', '/api/monitors', w.admin.access, {
            name: 'b',
            configuration_id: cfg,
            server_id: id,
            type: 'blockCheck',
        });
        const res = await w.call('DELETE', `/api/servers/${id}`, w.admin.access);
        expect(res.statusCode).toBe(200);
        expect(await w.t.app.ctx.db.select().from(services).where(eq(services.serverId, id))).toHaveLength(0);
        expect(await w.t.app.ctx.db.select().from(monitors).where(eq(monitors.serverId, id))).toHaveLength(0);
        expect((await w.call('GET', `/api/servers/${id}`, w.admin.access)).statusCode).toBe(404);
        expect(w.events).toContainEqual({ name: 'SERVER_DELETED', configurationId: cfg, serverId: id });
        expect((await w.audit()).map((a) => a.message)).toContain('Server "gone" deleted by alice');
    });

    it('moves its monitors along when it moves to another configuration', async () => {
        const other = await w.configuration(w.admin.access, { name: 'Other' });
        const id = await w.server(w.admin.access, cfg, { name: 'mover' });
        await w.call('POST', '/api/monitors', w.admin.access, {
            name: 'm',
            configuration_id: cfg,
            server_id: id,
            type: 'blockCheck',
        });
        const put = await w.call('PUT', `/api/servers/${id}`, w.admin.access, {
            name: 'mover',
            address: 'http://10.0.0.5',
            configuration_id: other,
        });
        expect(put.statusCode).toBe(200);
        const ms = (await w.call('GET', `/api/servers/${id}/monitors`, w.admin.access)).json();
        expect(ms[0].configuration_id).toBe(other);
    });

    it.each([
        [{ address: 'ftp://x' }, 'address', 'Address must be an http(s) URL'],
        [{ address: 'not a url' }, 'address', 'Address must be an http(s) URL'],
        [{ address: undefined }, 'address', 'Address must be an http(s) URL'],
        [
            { address: 'http://169.254.169.254/latest/meta-data' },
            'address',
            'Address must not point at a cloud metadata or link-local address',
        ],
        [
            { address: 'http://[fd00:ec2::254]/' },
            'address',
            'Address must not point at a cloud metadata or link-local address',
        ],
        [{ address: 'http://metadata.google.internal/' }, 'address', 'Address must not point at a cloud metadata host'],
        [
            { address: 'http://2852039166/' },
            'address',
            'Address must not point at a cloud metadata or link-local address',
        ],
        [{ name: '' }, 'name', 'Name is required'],
        [{ configuration_id: undefined }, 'configuration_id', 'Please select a configuration'],
        [{ configuration_id: 999999 }, 'configuration_id', 'Configuration not found'],
        [{ status: true }, 'status', 'Unknown field status'],
    ])('refuses %j naming %s', async (patch, field, text) => {
        const res = await w.call('POST', '/api/servers', w.admin.access, {
            name: 'x',
            address: 'http://10.0.0.9',
            configuration_id: cfg,
            ...patch,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors[field]).toBe(text);
    });

    it('answers 400/404 on odd ids, never 500', async () => {
        for (const id of [':id', 'abc', '0', '-1', '99999999999', 'x'.repeat(150)]) {
            const res = await w.call('GET', `/api/servers/${id}`, w.admin.access);
            expect([400, 404]).toContain(res.statusCode);
        }
        expect((await w.call('GET', '/api/servers/424242', w.admin.access)).statusCode).toBe(404);
    });
});
