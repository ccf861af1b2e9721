import { sql } from 'drizzle-orm';
import { createWorld, type World } from './config-fixtures';
import { seedCompany } from './helpers';

/**
 * A write and its audit entry are stored together or not at all. The audit store is broken by a
 * trigger (on PGlite and on PostgreSQL alike); every write route must then leave every table as it was, and the
 * retry once the audit store works again stores the row once.
 */
let w: World;
const ids = { company: 0, emptyCompany: 0, user: 0, doomedUser: 0, configuration: 0, server: 0 };
const more = { service: 0, monitor: 0, channel: 0, link: 0 };

const TABLES = [
    'companies',
    'users',
    'refresh_tokens',
    'configurations',
    'servers',
    'services',
    'monitors',
    'notification_channels',
    'configuration_channels',
];

async function snapshot(): Promise<Record<string, unknown[]>> {
    const out: Record<string, unknown[]> = {};
    for (const table of TABLES) {
        const res = await w.t.app.ctx.db.execute(sql.raw(`select * from ${table} order by id`));
        out[table] = (res as unknown as { rows: unknown[] }).rows;
    }
    return out;
}

async function breakAudit(broken: boolean): Promise<void> {
    const db = w.t.app.ctx.db;
    if (!broken) {
        await db.execute(sql`drop trigger if exists nm_test_fail_audit on audit_entries`);
        return;
    }
    await db.execute(
        sql.raw(`create or replace function nm_test_fail_audit() returns trigger language plpgsql as $$
            begin raise exception 'the audit store is broken'; end $$`)
    );
    await db.execute(
        sql`create trigger nm_test_fail_audit before insert on audit_entries for each row execute function nm_test_fail_audit()`
    );
}

const created = (res: { statusCode: number; body: string; json(): { id: number } }) => {
    if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
    return res.json().id;
};

beforeAll(async () => {
    w = await createWorld({ answerCacheMs: 0 });
    ids.company = w.acme;
    ids.emptyCompany = await seedCompany(w.t.app, 'Empty Inc');
    ids.configuration = await w.configuration(w.root.access, { company_id: w.acme });
    ids.server = await w.server(w.root.access, ids.configuration);
    const users = (await w.call('GET', '/api/users', w.root.access)).json().results as {
        id: number;
        username: string;
    }[];
    ids.user = users.find((u) => u.username === 'bob')?.id ?? 0;
    ids.doomedUser = users.find((u) => u.username === 'gus')?.id ?? 0;
    more.service = created(
        await w.call('POST', '/api/services', w.root.access, {
            name: 'rpc',
            type: 'rpc',
            address: 'http://127.0.0.1:9/',
            server_id: ids.server,
        })
    );
    more.monitor = created(
        await w.call('POST', '/api/monitors', w.root.access, {
            name: 'height',
            configuration_id: ids.configuration,
            server_id: ids.server,
            type: 'blockCheck',
        })
    );
    more.channel = created(
        await w.call('POST', '/api/notification-channels', w.root.access, {
            name: 'Ops',
            type: 'telegram',
            company_id: w.acme,
            configuration_object: { bot_token: '11:aaa', chat_id: '1' },
        })
    );
    more.link = created(
        await w.call('POST', `/api/configurations/${ids.configuration}/notification-channels`, w.root.access, {
            notification_channel_id: more.channel,
        })
    );
});
afterAll(() => w.t.close());
afterEach(() => breakAudit(false));

type Write = [string, 'POST' | 'PUT' | 'DELETE', () => string, () => object | undefined];
const WRITES: Write[] = [
    ['create company', 'POST', () => '/api/companies', () => ({ name: 'Initech' })],
    ['update company', 'PUT', () => `/api/companies/${ids.company}`, () => ({ name: 'Acme 2', is_active: false })],
    ['delete company', 'DELETE', () => `/api/companies/${ids.emptyCompany}`, () => undefined],
    [
        'create user',
        'POST',
        () => '/api/users',
        () => ({ username: 'zed', raw_password: 'password-123', company_id: w.acme }),
    ],
    [
        'update user (new password ends sessions)',
        'PUT',
        () => `/api/users/${ids.user}`,
        () => ({ username: 'bob', raw_password: 'another-password', company_id: w.acme }),
    ],
    ['delete user', 'DELETE', () => `/api/users/${ids.doomedUser}`, () => undefined],
    [
        'create configuration',
        'POST',
        () => '/api/configurations',
        () => ({ name: 'Second', chain: 'osmosis', company_id: w.acme }),
    ],
    [
        'update configuration',
        'PUT',
        () => `/api/configurations/${ids.configuration}`,
        () => ({ name: 'Renamed', chain: 'cosmoshub' }),
    ],
    [
        'create server',
        'POST',
        () => '/api/servers',
        () => ({ name: 'node-2', address: 'http://10.0.0.6', configuration_id: ids.configuration }),
    ],
    [
        'update server',
        'PUT',
        () => `/api/servers/${ids.server}`,
        () => ({ name: 'node-1b', address: 'http://10.0.0.7', configuration_id: ids.configuration }),
    ],
    [
        'create service',
        'POST',
        () => '/api/services',
        () => ({ name: 'rest', type: 'rest', address: 'http://127.0.0.1:9/', server_id: ids.server }),
    ],
    [
        'update service',
        'PUT',
        () => `/api/services/${more.service}`,
        () => ({ name: 'rpc2', type: 'rpc', address: 'http://127.0.0.1:8/', server_id: ids.server }),
    ],
    [
        'create monitor',
        'POST',
        () => '/api/monitors',
        () => ({ name: 'm2', configuration_id: ids.configuration, server_id: ids.server, type: 'blockCheck' }),
    ],
    [
        'update monitor',
        'PUT',
        () => `/api/monitors/${more.monitor}`,
        () => ({ name: 'm1b', configuration_id: ids.configuration, server_id: ids.server, type: 'blockCheck' }),
    ],
    [
        'create channel',
        'POST',
        () => '/api/notification-channels',
        () => ({
            name: 'Ops 2',
            type: 'telegram',
            company_id: w.acme,
            configuration_object: { bot_token: '22:bbb', chat_id: '2' },
        }),
    ],
    [
        'update channel',
        'PUT',
        () => `/api/notification-channels/${more.channel}`,
        () => ({ name: 'Ops b', type: 'telegram', configuration_object: { bot_token: '33:ccc', chat_id: '3' } }),
    ],
    [
        'unlink channel',
        'DELETE',
        () => `/api/configurations/${ids.configuration}/notification-channels/${more.link}`,
        () => undefined,
    ],
    ['delete monitor', 'DELETE', () => `/api/monitors/${more.monitor}`, () => undefined],
    ['delete service', 'DELETE', () => `/api/services/${more.service}`, () => undefined],
    ['delete server', 'DELETE', () => `/api/servers/${ids.server}`, () => undefined],
    ['delete configuration', 'DELETE', () => `/api/configurations/${ids.configuration}`, () => undefined],
];

describe('a write whose audit entry cannot be stored', () => {
    it.each(WRITES)('%s leaves every table as it was', async (_what, method, url, body) => {
        const before = await snapshot();
        await breakAudit(true);
        const res = await w.call(method, url(), w.root.access, body());
        expect(res.statusCode).toBe(500);
        expect(await snapshot()).toEqual(before);
    });

    it('answers 500 for a new company without storing it, and the retry stores exactly one', async () => {
        await breakAudit(true);
        const failed = await w.call('POST', '/api/companies', w.root.access, { name: 'Hooli' });
        expect(failed.statusCode).toBe(500);
        await breakAudit(false);
        const retried = await w.call('POST', '/api/companies', w.root.access, { name: 'Hooli' });
        expect(retried.statusCode).toBe(201);
        const all = (await w.call('GET', '/api/companies', w.root.access)).json().results as { name: string }[];
        expect(all.filter((c) => c.name === 'Hooli')).toHaveLength(1);
        expect((await w.audit()).filter((a) => a.message.startsWith('Company "Hooli" created'))).toHaveLength(1);
    });
});

describe('with the audit store working', () => {
    it.each(WRITES)('%s succeeds', async (_what, method, url, body) => {
        const res = await w.call(method, url(), w.root.access, body());
        expect(res.statusCode, res.body).toBeLessThan(300);
    });
});
