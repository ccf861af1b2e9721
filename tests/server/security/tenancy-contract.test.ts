import { configurationChannels, monitors } from '../../../server/db/schema';
import { createWorld, type World } from '../config-fixtures';
import { login, seedUser } from '../helpers';

/**
 * Security checklist items 14–18 and 26–31 (on save), and the docs/spec.md §7 contract details that guard tenancy:
 * link bodies, link ids of another configuration, the optional id in a monitor update, users for super admins only.
 */
let w: World;
const a = { configuration: 0, other: 0, server: 0, channel: 0, link: 0, monitor: 0 };
const b = { configuration: 0, server: 0, channel: 0, link: 0, monitor: 0 };

beforeAll(async () => {
    w = await createWorld();
    a.configuration = await w.configuration(w.admin.access, { name: 'A-conf' });
    a.other = await w.configuration(w.admin.access, { name: 'A-conf-2' });
    a.server = await w.server(w.admin.access, a.configuration);
    const channel = (token: string, name: string) =>
        w
            .call('POST', '/api/notification-channels', token, {
                name,
                type: 'telegram',
                configuration_object: { bot_token: `123456:AAH-secret-token-of-${name}`, chat_id: '5' },
            })
            .then((r) => r.json().id as number);
    a.channel = await channel(w.admin.access, 'A');
    a.link = (
        await w.call('POST', `/api/configurations/${a.configuration}/notification-channels`, w.admin.access, {
            configuration_id: a.configuration,
            notification_channel_id: a.channel,
        })
    ).json().id;
    a.monitor = (
        await w.call('POST', '/api/monitors', w.admin.access, {
            name: 'A-mon',
            configuration_id: a.configuration,
            server_id: a.server,
            type: 'blockCheck',
            configuration_object: '{}',
        })
    ).json().id;
    b.configuration = await w.configuration(w.other.access, { name: 'B-conf' });
    b.server = await w.server(w.other.access, b.configuration);
    b.channel = await channel(w.other.access, 'B');
    b.link = (
        await w.call('POST', `/api/configurations/${b.configuration}/notification-channels`, w.other.access, {
            notification_channel_id: b.channel,
        })
    ).json().id;
    b.monitor = (
        await w.call('POST', '/api/monitors', w.other.access, {
            name: 'B-mon',
            configuration_id: b.configuration,
            server_id: b.server,
            type: 'blockCheck',
        })
    ).json().id;
});
afterAll(() => w.t.close());

const links = () => w.t.app.ctx.db.select().from(configurationChannels);

describe('channel links (docs/spec.md §7)', () => {
    it('refuses a body configuration_id that differs from the path, and links nothing', async () => {
        const before = await links();
        for (const target of [a.other, b.configuration]) {
            const res = await w.call('POST', `/api/configurations/${a.other}/notification-channels`, w.admin.access, {
                configuration_id: target === a.other ? a.configuration : target,
                notification_channel_id: a.channel,
            });
            expect(res.statusCode).toBe(400);
            expect(res.json().errors).toHaveProperty('configuration_id');
        }
        expect(await links()).toEqual(before);
    });

    it('cannot link into or from another company (404), nor link a foreign channel', async () => {
        const before = await links();
        const into = await w.call(
            'POST',
            `/api/configurations/${b.configuration}/notification-channels`,
            w.admin.access,
            {
                configuration_id: b.configuration,
                notification_channel_id: a.channel,
            }
        );
        expect(into.statusCode).toBe(404);
        const foreign = await w.call('POST', `/api/configurations/${a.other}/notification-channels`, w.admin.access, {
            configuration_id: a.other,
            notification_channel_id: b.channel,
        });
        expect(foreign.statusCode).toBe(404);
        expect(await links()).toEqual(before);
    });

    it('answers 404 to DELETE of a link id that belongs to another configuration, and keeps it', async () => {
        const sameCompany = await w.call(
            'DELETE',
            `/api/configurations/${a.other}/notification-channels/${a.link}`,
            w.admin.access
        );
        expect(sameCompany.statusCode).toBe(404);
        const otherCompany = await w.call(
            'DELETE',
            `/api/configurations/${a.configuration}/notification-channels/${b.link}`,
            w.admin.access
        );
        expect(otherCompany.statusCode).toBe(404);
        const ids = (await links()).map((l) => l.id);
        expect(ids).toContain(a.link);
        expect(ids).toContain(b.link);
    });

    it('lists links with the nested channel and never its settings', async () => {
        const res = await w.call('GET', `/api/configurations/${a.configuration}/notification-channels`, w.plain.access);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual([
            {
                id: a.link,
                configuration_id: a.configuration,
                notification_channel_id: a.channel,
                notification_channel: { id: a.channel, type: 'telegram', name: 'A', is_enabled: true },
            },
        ]);
        expect(res.body).not.toContain('AAH');
    });
});

describe('PUT /monitors/:id (docs/spec.md §7)', () => {
    it('accepts the optional id in the payload, and the path decides which monitor changes', async () => {
        const current = (await w.call('GET', `/api/monitors/${a.monitor}`, w.admin.access)).json();
        const res = await w.call('PUT', `/api/monitors/${a.monitor}`, w.admin.access, {
            id: a.monitor,
            name: 'A-mon renamed',
            is_enabled: true,
            configuration_id: a.configuration,
            server_id: a.server,
            type: 'blockCheck',
            configuration_object: current.configuration_object,
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ id: a.monitor, name: 'A-mon renamed' });
    });

    it("cannot reach another company's monitor through the body id", async () => {
        const res = await w.call('PUT', `/api/monitors/${a.monitor}`, w.admin.access, {
            id: b.monitor,
            name: 'hijack',
            configuration_id: a.configuration,
            server_id: a.server,
            type: 'blockCheck',
        });
        expect(res.statusCode).toBe(200);
        const rows = await w.t.app.ctx.db.select().from(monitors);
        expect(rows.find((m) => m.id === b.monitor)?.name).toBe('B-mon');
    });
});

describe('#14/#15 IDOR', () => {
    it.each([
        ['GET', () => `/api/monitors/${b.monitor}`],
        ['GET', () => `/api/servers/${b.server}/metrics`],
        ['GET', () => `/api/configurations/${b.configuration}/notification-channels`],
        ['GET', () => `/api/notification-channels/${b.channel}`],
        ['DELETE', () => `/api/monitors/${b.monitor}`],
        ['DELETE', () => `/api/notification-channels/${b.channel}`],
    ] as const)('%s %s of another company → 404', async (method, url) => {
        const res = await w.call(method, url(), w.admin.access);
        expect(res.statusCode).toBe(404);
    });

    it("never returns another company's audit entries, whatever the filter", async () => {
        for (const filter of [
            { monitor_id: b.monitor },
            { configuration_id: b.configuration },
            { server_id: b.server },
            { company_id: w.globex },
        ]) {
            const res = await w.call(
                'GET',
                `/api/audit/latest?filter=${encodeURIComponent(JSON.stringify(filter))}`,
                w.plain.access
            );
            expect(res.statusCode).toBe(200);
            expect(res.body).not.toMatch(/B-conf|B-mon|"B"/);
        }
    });

    it('logs an authorization failure', async () => {
        await w.call('POST', '/api/configurations', w.plain.access, { name: 'x', chain: 'y' });
        expect(w.t.logs.join('\n')).toMatch(/POST \/api\/configurations refused to user bob \(403\)/);
    });
});

describe('#16 filter tampering', () => {
    it.each(['/api/configurations', '/api/servers', '/api/notification-channels', '/api/monitors'])(
        '%s stays in the caller company with a foreign company_id filter and q',
        async (url) => {
            const q = `filter=${encodeURIComponent(JSON.stringify({ company_id: w.globex, q: 'B' }))}&sort=${encodeURIComponent('["id","ASC"]')}&range=[0,9]`;
            const res = await w.call('GET', `${url}?${q}`, w.admin.access);
            expect(res.statusCode).toBe(200);
            expect(res.body).not.toMatch(/B-conf|B-mon|"name":"B"/);
        }
    );
    it.each(['/api/configurations', '/api/servers', '/api/notification-channels', '/api/monitors'])(
        '%s refuses fields it does not know, naming the parameter',
        async (url) => {
            const byColumn = await w.call(
                'GET',
                `${url}?sort=${encodeURIComponent('["company_id","ASC"]')}`,
                w.admin.access
            );
            expect(byColumn.statusCode).toBe(400);
            expect(byColumn.json().errors).toHaveProperty('sort');
            const filter = encodeURIComponent(JSON.stringify({ companyId: w.globex }));
            const byName = await w.call('GET', `${url}?filter=${filter}`, w.admin.access);
            expect(byName.statusCode).toBe(400);
            expect(byName.json().errors).toHaveProperty('filter');
        }
    );
});

describe('#17 mass assignment', () => {
    it.each([
        ['POST', (): string => '/api/configurations', { name: 'x', chain: 'c', companyId: 2 }],
        ['POST', (): string => '/api/configurations', { name: 'x', chain: 'c', is_super_admin: true }],
        [
            'POST',
            (): string => '/api/servers',
            { name: 'x', address: 'http://10.0.0.1', configuration_id: a.configuration, createdBy: 1 },
        ],
        [
            'POST',
            (): string => '/api/notification-channels',
            {
                name: 'x',
                type: 'telegram',
                configuration_object: { bot_token: '1:a', chat_id: '1' },
                encryptedToken: 'x',
            },
        ],
        [
            'POST',
            (): string => '/api/monitors',
            { name: 'x', type: 'blockCheck', configuration_id: a.configuration, server_id: a.server, owner: 'me' },
        ],
        ['PUT', (): string => `/api/configurations/${a.configuration}`, { name: 'x', chain: 'c', role: 'admin' }],
    ] as const)('%s %s with an unknown field → 400 naming it', async (method, url, body) => {
        const res = await w.call(method, url(), w.admin.access, body);
        expect(res.statusCode).toBe(400);
        const unknown = Object.keys(body).find(
            (k) =>
                !['name', 'chain', 'address', 'configuration_id', 'type', 'configuration_object', 'server_id'].includes(
                    k
                )
        );
        expect(res.json().errors).toHaveProperty(unknown ?? '');
    });

    it('refuses company_id of another company from a company admin', async () => {
        const res = await w.call('POST', '/api/configurations', w.admin.access, {
            name: 'x',
            chain: 'c',
            company_id: w.globex,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toHaveProperty('company_id');
    });
});

describe('#18 privilege escalation', () => {
    it('a company admin cannot read, create or edit users at all', async () => {
        const superAdmin = {
            username: 'evil',
            is_active: true,
            is_admin: true,
            is_super_admin: true,
            company_id: null,
            raw_password: 'password-123',
        };
        for (const [method, url, body] of [
            ['GET', '/api/users', undefined],
            ['GET', '/api/users/1', undefined],
            ['POST', '/api/users', superAdmin],
            ['PUT', '/api/users/1', superAdmin],
            ['DELETE', '/api/users/1', undefined],
            ['GET', '/api/companies', undefined],
            ['POST', '/api/companies', { name: 'x' }],
        ] as const) {
            const res = await w.call(method, url, w.admin.access, body);
            expect(res.statusCode, `${method} ${url}`).toBe(403);
        }
        // users/me is everyone's, and says only who the caller is.
        const me = await w.call('GET', '/api/users/me', w.admin.access);
        expect(me.json()).toMatchObject({ username: 'alice', is_super_admin: false });
    });

    it('a company admin cannot edit a super admin', async () => {
        const rootId = (await w.call('GET', '/api/users/me', w.root.access)).json().id;
        const res = await w.call('PUT', `/api/users/${rootId}`, w.admin.access, {
            username: 'root',
            is_active: false,
            is_admin: false,
            is_super_admin: false,
            company_id: w.acme,
        });
        expect(res.statusCode).toBe(403);
        expect((await w.call('GET', '/api/users/me', w.root.access)).statusCode).toBe(200);
    });

    it('a read-only user cannot change a chat id or test a channel', async () => {
        const put = await w.call('PUT', `/api/notification-channels/${a.channel}`, w.plain.access, {
            name: 'A',
            type: 'telegram',
            configuration_object: { chat_id: '666' },
        });
        expect(put.statusCode).toBe(403);
        const test = await w.call('POST', '/api/notification-channels/test', w.plain.access, {
            name: 'A',
            type: 'telegram',
            configuration_object: { bot_token: '1:a', chat_id: '1' },
        });
        expect(test.statusCode).toBe(403);
    });

    it('a new super admin made by a super admin can sign in (the allowed path)', async () => {
        await seedUser(w.t.app, { username: 'root2', isSuperAdmin: true });
        expect((await login(w.t.app, 'root2')).access).toBeTruthy();
    });
});

describe('#26/#30/#31 targets refused on save', () => {
    const server = (address: string) =>
        w.call('POST', '/api/servers', w.admin.access, { name: 's', address, configuration_id: a.configuration });
    const service = (address: string) =>
        w.call('POST', '/api/services', w.admin.access, { name: 's', type: 'rpc', address, server_id: a.server });
    const monitor = (address: string) =>
        w.call('POST', '/api/monitors', w.admin.access, {
            name: 'm',
            type: 'urlCheck',
            configuration_id: a.configuration,
            server_id: null,
            configuration_object: JSON.stringify({ name: 'm', address, allowed_attempts: 3 }),
        });

    it.each([
        'http://169.254.169.254/latest/meta-data/',
        'http://[fd00:ec2::254]/',
        'http://metadata.google.internal/computeMetadata/v1/',
        'http://METADATA.google.internal./',
        'http://2852039166/',
        'http://0xa9.0xfe.0xa9.0xfe/',
        'http://[::ffff:169.254.169.254]/',
        'http://user@169.254.169.254/',
        'http://100.100.100.200/',
        'file:///etc/passwd',
        'gopher://127.0.0.1:6379/_INFO',
        'ftp://example.com/',
        'data:text/plain,hi',
        'ws://example.com/',
        'javascript:alert(1)',
    ])('%s', async (address) => {
        for (const res of [await server(address), await service(address), await monitor(address)]) {
            expect(res.statusCode).toBe(400);
            expect(JSON.stringify(res.json().errors)).toMatch(/address|configuration_object/);
        }
    });

    it('allows private and public http(s) targets (validators sit on private networks)', async () => {
        expect((await server('http://10.0.0.7:26657')).statusCode).toBe(201);
        expect((await server('https://rpc.example.com')).statusCode).toBe(201);
    });
});
