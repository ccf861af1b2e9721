import { configurations, monitors, notificationChannels, servers, services } from '../../server/db/schema';
import { createWorld, type World } from './config-fixtures';

/**
 * Architecture §3: a company A member never reads, changes or links company B's rows (404, never 403), a read-only
 * user's writes are 403, and a super admin reaches everything.
 */
let w: World;
/** Globex rows, created by Globex's admin. */
const b = { configuration: 0, server: 0, service: 0, monitor: 0, channel: 0, link: 0 };
/** Acme rows. */
const a = { configuration: 0, server: 0, channel: 0 };

beforeAll(async () => {
    w = await createWorld();
    b.configuration = await w.configuration(w.other.access, { name: 'B-conf', chain: 'osmosis' });
    b.server = await w.server(w.other.access, b.configuration, { name: 'B-srv' });
    b.service = (
        await w.call('POST', '/api/services', w.other.access, {
            name: 'rpc',
            type: 'rpc',
            address: 'http://127.0.0.1:9/',
            server_id: b.server,
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
    b.channel = (
        await w.call('POST', '/api/notification-channels', w.other.access, {
            name: 'B-chan',
            type: 'telegram',
            configuration_object: { bot_token: '99:bbb', chat_id: '9' },
        })
    ).json().id;
    b.link = (
        await w.call('POST', `/api/configurations/${b.configuration}/notification-channels`, w.other.access, {
            configuration_id: b.configuration,
            notification_channel_id: b.channel,
        })
    ).json().id;
    a.configuration = await w.configuration(w.admin.access, { name: 'A-conf' });
    a.server = await w.server(w.admin.access, a.configuration, { name: 'A-srv' });
    a.channel = (
        await w.call('POST', '/api/notification-channels', w.admin.access, {
            name: 'A-chan',
            type: 'telegram',
            configuration_object: { bot_token: '11:aaa', chat_id: '1' },
        })
    ).json().id;
});
afterAll(() => w.t.close());

async function snapshot() {
    const db = w.t.app.ctx.db;
    return JSON.stringify([
        await db.select().from(configurations),
        await db.select().from(servers),
        await db.select().from(services),
        await db.select().from(monitors),
        await db.select().from(notificationChannels),
    ]);
}

describe('reads of another company answer 404', () => {
    it.each([
        (): string => `/api/configurations/${b.configuration}`,
        (): string => `/api/configurations/${b.configuration}/servers`,
        (): string => `/api/configurations/${b.configuration}/monitors`,
        (): string => `/api/configurations/${b.configuration}/notification-channels`,
        (): string => `/api/servers/${b.server}`,
        (): string => `/api/servers/${b.server}/monitors`,
        (): string => `/api/servers/${b.server}/services`,
        (): string => `/api/services/${b.service}/test`,
        (): string => `/api/monitors/${b.monitor}`,
        (): string => `/api/notification-channels/${b.channel}`,
    ])('GET %s', async (url) => {
        for (const who of [w.admin, w.plain]) {
            const res = await w.call('GET', url(), who.access);
            expect(res.statusCode).toBe(404);
            expect(res.body).not.toContain('B-');
        }
        expect((await w.call('GET', url(), w.root.access)).statusCode).not.toBe(404);
    });

    it('lists only the caller company, whatever the filter says', async () => {
        const filter = encodeURIComponent(JSON.stringify({ company_id: w.globex }));
        for (const url of [
            '/api/configurations',
            `/api/configurations?filter=${filter}`,
            '/api/servers',
            '/api/notification-channels',
            '/api/monitors/failed',
        ]) {
            const res = await w.call('GET', url, w.plain.access);
            expect(res.statusCode).toBe(200);
            expect(res.body).not.toContain('B-');
        }
        const confs = (await w.call('GET', `/api/configurations?filter=${filter}`, w.admin.access)).json();
        expect(confs.map((c: { company_id: number }) => c.company_id)).toEqual([w.acme]);
        const all = (await w.call('GET', '/api/configurations', w.root.access)).json();
        expect(all.map((c: { name: string }) => c.name).sort()).toEqual(['A-conf', 'B-conf']);
    });
});

describe('writes to another company change nothing', () => {
    it.each([
        ['PUT', (): string => `/api/configurations/${b.configuration}`, (): object => ({ name: 'x', chain: 'y' })],
        ['DELETE', (): string => `/api/configurations/${b.configuration}`, (): undefined => undefined],
        [
            'PUT',
            (): string => `/api/servers/${b.server}`,
            (): object => ({ name: 'x', address: 'http://x', configuration_id: a.configuration }),
        ],
        ['DELETE', (): string => `/api/servers/${b.server}`, (): undefined => undefined],
        [
            'PUT',
            (): string => `/api/services/${b.service}`,
            (): object => ({ name: 'x', type: 'rpc', address: 'http://x', server_id: a.server }),
        ],
        ['DELETE', (): string => `/api/services/${b.service}`, (): undefined => undefined],
        [
            'PUT',
            (): string => `/api/monitors/${b.monitor}`,
            (): object => ({ name: 'x', configuration_id: a.configuration, server_id: a.server, type: 'blockCheck' }),
        ],
        ['DELETE', (): string => `/api/monitors/${b.monitor}`, (): undefined => undefined],
        [
            'PUT',
            (): string => `/api/notification-channels/${b.channel}`,
            (): object => ({ name: 'x', type: 'telegram', configuration_object: { chat_id: '1' } }),
        ],
        ['DELETE', (): string => `/api/notification-channels/${b.channel}`, (): undefined => undefined],
        [
            'POST',
            (): string => `/api/configurations/${b.configuration}/notification-channels`,
            (): object => ({ notification_channel_id: a.channel }),
        ],
        [
            'POST',
            (): string => `/api/configurations/${a.configuration}/notification-channels`,
            (): object => ({ notification_channel_id: b.channel }),
        ],
        [
            'DELETE',
            (): string => `/api/configurations/${b.configuration}/notification-channels/${b.link}`,
            (): undefined => undefined,
        ],
        [
            'DELETE',
            (): string => `/api/configurations/${a.configuration}/notification-channels/${b.link}`,
            (): undefined => undefined,
        ],
    ] as const)('%s %s → 404', async (method, url, payload) => {
        const before = await snapshot();
        const res = await w.call(method, url(), w.admin.access, payload());
        expect(res.statusCode).toBe(404);
        expect(await snapshot()).toBe(before);
    });

    it('refuses nested ids of another company in bodies', async () => {
        const before = await snapshot();
        const cases: [string, object, string][] = [
            ['/api/servers', { name: 's', address: 'http://x', configuration_id: b.configuration }, 'configuration_id'],
            ['/api/services', { name: 's', type: 'rpc', address: 'http://x', server_id: b.server }, 'server_id'],
            [
                '/api/monitors',
                { name: 'm', configuration_id: b.configuration, server_id: b.server, type: 'blockCheck' },
                'configuration_id',
            ],
            [
                '/api/monitors',
                { name: 'm', configuration_id: a.configuration, server_id: b.server, type: 'blockCheck' },
                'server_id',
            ],
            ['/api/configurations', { name: 'c', chain: 'x', company_id: w.globex }, 'company_id'],
            [
                '/api/notification-channels',
                {
                    name: 'c',
                    type: 'telegram',
                    configuration_object: { bot_token: '1:a', chat_id: '1' },
                    company_id: w.globex,
                },
                'company_id',
            ],
        ];
        for (const [url, payload, field] of cases) {
            const res = await w.call('POST', url, w.admin.access, payload);
            expect(res.statusCode, url).toBe(400);
            expect(Object.keys(res.json().errors), url).toContain(field);
        }
        const moved = await w.call('PUT', `/api/servers/${a.server}`, w.admin.access, {
            name: 'A-srv',
            address: 'http://10.0.0.5',
            configuration_id: b.configuration,
        });
        expect(moved.statusCode).toBe(400);
        expect(await snapshot()).toBe(before);
    });

    it('refuses a super admin to link channels across companies', async () => {
        const res = await w.call(
            'POST',
            `/api/configurations/${a.configuration}/notification-channels`,
            w.root.access,
            {
                notification_channel_id: b.channel,
            }
        );
        expect(res.statusCode).toBe(400);
        expect(res.json().errors.notification_channel_id).toBe('The notification channel belongs to another company');
    });
});

describe('role matrix', () => {
    it.each([
        ['POST', (): string => '/api/configurations'],
        ['PUT', (): string => `/api/configurations/${a.configuration}`],
        ['DELETE', (): string => `/api/configurations/${a.configuration}`],
        ['POST', (): string => `/api/configurations/${a.configuration}/notification-channels`],
        ['DELETE', (): string => `/api/configurations/${a.configuration}/notification-channels/1`],
        ['POST', (): string => '/api/servers'],
        ['PUT', (): string => `/api/servers/${a.server}`],
        ['DELETE', (): string => `/api/servers/${a.server}`],
        ['POST', (): string => '/api/services'],
        ['PUT', (): string => '/api/services/1'],
        ['DELETE', (): string => '/api/services/1'],
        ['POST', (): string => '/api/monitors'],
        ['PUT', (): string => '/api/monitors/1'],
        ['DELETE', (): string => '/api/monitors/1'],
        ['POST', (): string => '/api/notification-channels'],
        ['PUT', (): string => `/api/notification-channels/${a.channel}`],
        ['DELETE', (): string => `/api/notification-channels/${a.channel}`],
        ['POST', (): string => '/api/notification-channels/test'],
    ] as const)('a read-only user gets 403 on %s %s', async (method, url) => {
        const before = await snapshot();
        const res = await w.call(method, url(), w.plain.access, method === 'DELETE' ? undefined : { name: 'x' });
        expect(res.statusCode).toBe(403);
        expect(await snapshot()).toBe(before);
    });

    it('answers 401 without a token', async () => {
        for (const url of [
            '/api/configurations',
            '/api/servers',
            '/api/monitors/failed',
            '/api/notification-channels',
        ]) {
            expect((await w.t.app.inject({ url })).statusCode).toBe(401);
        }
    });

    it('lets a super admin change any company row, and put new configurations where it says', async () => {
        const res = await w.call('PUT', `/api/monitors/${b.monitor}`, w.root.access, {
            name: 'B-mon2',
            configuration_id: b.configuration,
            server_id: b.server,
            type: 'blockCheck',
        });
        expect(res.statusCode).toBe(200);
        const created = await w.call('POST', '/api/configurations', w.root.access, {
            name: 'B-new',
            chain: 'x',
            company_id: w.globex,
        });
        expect(created.json().company).toEqual({ id: w.globex, name: 'Globex' });
        const none = await w.call('POST', '/api/configurations', w.root.access, { name: 'nowhere', chain: 'x' });
        expect(none.json().errors.company_id).toBe('Please select a company');
        const moved = await w.call('PUT', `/api/configurations/${a.configuration}`, w.root.access, {
            name: 'A-conf',
            chain: 'x',
            company_id: w.globex,
        });
        expect(moved.json().errors.company_id).toBe('A configuration cannot be moved to another company');
    });
});
