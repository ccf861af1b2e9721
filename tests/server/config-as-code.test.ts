import { eq } from 'drizzle-orm';
import { parse, stringify } from 'yaml';
import { createWorld, type World } from './config-fixtures';
import { auth } from './helpers';

let w: World;

beforeAll(async () => {
    w = await createWorld();
    const cfg = await w.configuration(w.admin.access, { name: 'Cosmos Hub', chain: 'cosmoshub' });
    const srv = await w.server(w.admin.access, cfg, { name: 'validator-1', address: 'http://10.0.0.5' });
    for (const [type, port] of [
        ['rpc', 26657],
        ['rest', 1317],
    ] as const) {
        const res = await w.call('POST', '/api/services', w.admin.access, {
            name: type,
            type,
            address: `http://10.0.0.5:${port}`,
            server_id: srv,
        });
        expect(res.statusCode).toBe(201);
    }
    for (const body of [
        { name: 'Blocks', server_id: srv, type: 'blockCheck', configuration_object: '{"miss_tolerance":3}' },
        {
            name: 'Explorer',
            server_id: null,
            type: 'urlCheck',
            configuration_object: JSON.stringify({ address: 'https://explorer.example.com' }),
        },
    ]) {
        const res = await w.call('POST', '/api/monitors', w.admin.access, { configuration_id: cfg, ...body });
        expect(res.statusCode).toBe(201);
    }
    for (const name of ['ops', 'oncall']) {
        const ch = await w.call('POST', '/api/notification-channels', w.admin.access, {
            name,
            type: 'telegram',
            configuration_object: { bot_token: '123456:SECRET-bot-token', chat_id: '-100' },
        });
        expect(ch.statusCode).toBe(201);
        if (name === 'ops') {
            await w.call('POST', `/api/configurations/${cfg}/notification-channels`, w.admin.access, {
                configuration_id: cfg,
                notification_channel_id: ch.json().id,
            });
        }
    }
    // Another company's rows must never appear in, or be touched by, Acme's documents.
    await w.configuration(w.other.access, { name: 'Globex main', chain: 'osmosis' });
});
afterAll(() => w?.t.close());

const exportDoc = async (token = w.admin.access, format = 'yaml') => {
    const res = await w.t.app.inject({ url: `/api/export?format=${format}`, headers: auth(token) });
    expect(res.statusCode).toBe(200);
    return res;
};
const importDoc = (doc: unknown, dryRun: boolean, token = w.admin.access) =>
    w.t.app.inject({
        method: 'POST',
        url: `/api/import?dry_run=${dryRun}`,
        headers: { ...auth(token), 'content-type': 'application/yaml' },
        payload: typeof doc === 'string' ? doc : stringify(doc),
    });

describe('configuration as code', () => {
    it("exports the company's tree by names, without secrets or other companies' rows", async () => {
        const res = await exportDoc();
        expect(res.headers['content-type']).toMatch(/^application\/yaml/);
        expect(res.body).not.toContain('SECRET');
        expect(res.body).not.toContain('Globex');
        const doc = parse(res.body);
        expect(doc).toMatchObject({
            version: 1,
            company: 'Acme',
            configurations: [
                {
                    name: 'Cosmos Hub',
                    chain: 'cosmoshub',
                    is_enabled: true,
                    channels: ['ops'],
                    servers: [
                        {
                            name: 'validator-1',
                            address: 'http://10.0.0.5',
                            services: [
                                { name: 'rpc', type: 'rpc', address: 'http://10.0.0.5:26657' },
                                { name: 'rest', type: 'rest', address: 'http://10.0.0.5:1317' },
                            ],
                            monitors: [{ name: 'Blocks', type: 'blockCheck', settings: { miss_tolerance: 3 } }],
                        },
                    ],
                    monitors: [{ name: 'Explorer', type: 'urlCheck' }],
                },
            ],
        });
        const json = (await exportDoc(w.admin.access, 'json')).json();
        expect(json).toEqual(doc);
    });

    it('imports its own export as a no-op, in a dry run and for real', async () => {
        const yaml = (await exportDoc()).body;
        const auditBefore = (await w.audit()).length;
        for (const dryRun of [true, false]) {
            const res = await importDoc(yaml, dryRun);
            expect(res.statusCode).toBe(200);
            expect(res.json()).toMatchObject({
                dry_run: dryRun,
                applied: !dryRun,
                summary: { create: 0, update: 0, delete: 0, unchanged: 7 },
            });
        }
        expect((await w.audit()).length).toBe(auditBefore);
        expect((await exportDoc()).body).toBe(yaml);
    });

    it('plans a changed document and then applies exactly the planned changes', async () => {
        const doc = parse((await exportDoc()).body);
        const cfg = doc.configurations[0];
        cfg.servers[0].address = 'http://10.0.0.6';
        cfg.servers[0].services = cfg.servers[0].services.filter((s: { type: string }) => s.type !== 'rest');
        cfg.servers[0].monitors.push({ name: 'Disk', type: 'nodeExporterDiskSpace', settings: { threshold: 85 } });
        cfg.channels = ['oncall'];
        cfg.monitors = [];
        const plan = await importDoc(doc, true);
        expect(plan.statusCode).toBe(200);
        const changes = (plan.json().items as { action: string; kind: string; name: string; fields?: string[] }[])
            .filter((i) => i.action !== 'unchanged')
            .map((i) => `${i.action} ${i.kind} ${i.name}${i.fields ? ` (${i.fields.join(', ')})` : ''}`);
        expect(changes.sort()).toEqual(
            [
                'create channel_link oncall',
                'delete channel_link ops',
                'update server validator-1 (address)',
                'delete service rest',
                'create monitor Disk',
                'delete monitor Explorer',
            ].sort()
        );
        expect(plan.json().summary).toEqual({ create: 2, update: 1, rename: 0, delete: 3, unchanged: 3 });
        // The dry run changed nothing.
        expect(parse((await exportDoc()).body).configurations[0].servers[0].address).toBe('http://10.0.0.5');

        const applied = await importDoc(doc, false);
        expect(applied.statusCode).toBe(200);
        expect(applied.json().items).toEqual(plan.json().items);
        const after = parse((await exportDoc()).body);
        expect(after.configurations[0].servers[0].address).toBe('http://10.0.0.6');
        expect(after.configurations[0].channels).toEqual(['oncall']);
        expect(after.configurations[0].servers[0].services.map((s: { name: string }) => s.name)).toEqual(['rpc']);
        expect(after.configurations[0].servers[0].monitors.map((m: { name: string }) => m.name)).toEqual([
            'Blocks',
            'Disk',
        ]);
        expect(after.configurations[0].servers[0].monitors[1].settings.threshold).toBe(85);
        expect(after.configurations[0].monitors).toEqual([]);
        const audit = (await w.audit()).map((a) => a.message);
        expect(audit).toContain('Monitor "Disk" created by alice (import)');
        expect(audit).toContain('Service "rest" deleted by alice (import)');
        // Globex is untouched.
        expect(
            parse((await exportDoc(w.other.access)).body).configurations.map((c: { name: string }) => c.name)
        ).toEqual(['Globex main']);
        // Applying the same document again is a no-op.
        expect((await importDoc(doc, false)).json().summary).toMatchObject({ create: 0, update: 0, delete: 0 });
    });

    it('matches rows by their exported key: a rename is a rename, with the same ids and history', async () => {
        const doc = parse((await exportDoc()).body);
        const cfg = doc.configurations[0];
        const server = cfg.servers[0];
        const monitor = server.monitors[0];
        expect(server.key).toMatch(/^s\d+$/);
        expect(monitor.key).toMatch(/^m\d+$/);
        const idOf = (key: string) => Number(key.slice(1));
        const incidentsBefore = (await w.call('GET', `/api/monitors/${idOf(monitor.key)}`, w.admin.access)).json();
        server.name = 'validator-a';
        monitor.name = 'Block height';
        cfg.name = 'Cosmos Hub (main)';
        const plan = await importDoc(doc, true);
        expect(plan.statusCode).toBe(200);
        const changes = (plan.json().items as { action: string; kind: string; name: string; was?: string }[])
            .filter((i) => i.action !== 'unchanged')
            .map((i) => `${i.action} ${i.kind} ${i.was} → ${i.name}`);
        expect(changes.sort()).toEqual(
            [
                'rename configuration Cosmos Hub → Cosmos Hub (main)',
                'rename server validator-1 → validator-a',
                'rename monitor Blocks → Block height',
            ].sort()
        );
        expect(plan.json().summary).toMatchObject({ rename: 3, create: 0, delete: 0 });
        expect((await importDoc(doc, false)).statusCode).toBe(200);
        const after = parse((await exportDoc()).body);
        expect(after.configurations[0]).toMatchObject({ key: cfg.key, name: 'Cosmos Hub (main)' });
        expect(after.configurations[0].servers[0]).toMatchObject({ key: server.key, name: 'validator-a' });
        expect(after.configurations[0].servers[0].monitors[0]).toMatchObject({
            key: monitor.key,
            name: 'Block height',
        });
        const renamed = (await w.call('GET', `/api/monitors/${idOf(monitor.key)}`, w.admin.access)).json();
        expect(renamed).toMatchObject({ id: incidentsBefore.id, name: 'Block height', server_id: idOf(server.key) });
        expect((await w.audit()).map((a) => a.message)).toContain('Monitor "Block height" updated by alice (import)');
    });

    it('names the path of every wrong field and changes nothing', async () => {
        const before = (await exportDoc()).body;
        const doc = parse(before);
        doc.configurations.push({
            name: 'Broken',
            chain: 'osmosis',
            channels: ['nobody'],
            monitors: [{ name: 'x', type: 'noSuchType' }],
            servers: [
                {
                    name: 'n',
                    address: 'ftp://n',
                    monitors: [{ name: 'm', type: 'blockCheck', settings: { miss_tolerance: 'many' } }],
                },
            ],
        });
        const res = await importDoc(doc, false);
        expect(res.statusCode).toBe(400);
        expect(Object.keys(res.json().errors).sort()).toEqual(
            [
                'configurations[1].monitors[0].type',
                'configurations[1].servers[0].address',
                'configurations[1].servers[0].monitors[0].settings.miss_tolerance',
            ].sort()
        );
        const channels = await importDoc(
            { ...doc, configurations: [doc.configurations[0], { name: 'B', chain: 'x', channels: ['nobody'] }] },
            false
        );
        expect(channels.statusCode).toBe(400);
        expect(channels.json().errors).toEqual({
            'configurations[1].channels[0]': 'No notification channel is called "nobody"',
        });
        expect((await importDoc('version: 1\nconfigurations: [', true)).statusCode).toBe(400);
        expect((await importDoc({ version: 2, configurations: [] }, true)).json().errors).toHaveProperty('version');
        expect((await exportDoc()).body).toBe(before);
    });

    it('keeps addresses as the API does: passwords sealed and masked, private ranges only where allowed', async () => {
        const doc = parse((await exportDoc()).body);
        const services = doc.configurations[0].servers[0].services;
        services.push({ name: 'rest', type: 'rest', address: 'http://ops:hunter2@10.0.0.6:1317' });
        const applied = await importDoc(doc, false);
        expect(applied.statusCode).toBe(200);
        const exported = (await exportDoc()).body;
        expect(exported).not.toContain('hunter2');
        expect(exported).toContain('http://ops:••••@10.0.0.6:1317');
        const { services: table } = await import('../../server/db/schema');
        const rows = await w.t.app.ctx.db.select().from(table);
        const sealed = rows.find((r) => r.address.includes('10.0.0.6:1317'));
        expect(sealed?.address).toBe('http://ops:••••@10.0.0.6:1317');
        expect(sealed?.addressSecret).toBeTruthy();
        expect(JSON.stringify(rows)).not.toContain('hunter2');
        // The export, masked password and all, imports as a no-op and keeps the sealed password.
        expect((await importDoc(exported, false)).json().summary).toMatchObject({ create: 0, update: 0, delete: 0 });
        const [again] = await w.t.app.ctx.db
            .select()
            .from(table)
            .where(eq(table.id, sealed?.id ?? -1));
        expect(again?.addressSecret).toBe(sealed?.addressSecret);

        // 192.168/16 is not among Acme's allowed networks: refused by path, nothing changed.
        services.push({ name: 'grpc', type: 'rpc', address: 'http://192.168.1.5:26657' });
        const refused = await importDoc(doc, true);
        expect(refused.statusCode).toBe(400);
        expect(Object.keys(refused.json().errors)).toEqual(['configurations[0].servers[0].services[2].address']);
        expect((await exportDoc()).body).toBe(exported);
    });

    it('lets a read-only user export but not import, and asks a super admin which company', async () => {
        expect((await exportDoc(w.plain.access)).statusCode).toBe(200);
        expect((await importDoc({ version: 1, configurations: [] }, true, w.plain.access)).statusCode).toBe(403);
        const root = await w.t.app.inject({ url: '/api/export', headers: auth(w.root.access) });
        expect(root.statusCode).toBe(400);
        expect(root.json().errors).toHaveProperty('company_id');
        const named = await w.t.app.inject({
            url: `/api/export?format=json&company_id=${w.globex}`,
            headers: auth(w.root.access),
        });
        expect(named.json().company).toBe('Globex');
    });
});
