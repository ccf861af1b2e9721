import { createWorld, type World } from './config-fixtures';

/** react-admin's list requests (sort, range, filter → Content-Range), answered in SQL for every list that grows. */
let w: World;
beforeAll(async () => {
    w = await createWorld();
    for (const [token, prefix] of [
        [w.admin.access, 'P'],
        [w.other.access, 'G'],
    ] as const) {
        for (const name of ['c', 'a', 'd', 'b']) {
            const configuration_id = await w.configuration(token, {
                name: `${prefix}-${name}`,
                chain: `chain-${name}`,
            });
            const server = await w.server(token, configuration_id, { name: `${prefix}-srv-${name}` });
            const res = await w.call('POST', '/api/monitors', token, {
                name: `${prefix}-mon-${name}`,
                configuration_id,
                server_id: server,
                type: 'blockCheck',
                configuration_object: '{}',
            });
            expect(res.statusCode).toBe(201);
            const channel = await w.call('POST', '/api/notification-channels', token, {
                name: `${prefix}-chan-${name}`,
                type: 'telegram',
                configuration_object: { bot_token: '1:a', chat_id: '1' },
                is_enabled: true,
            });
            expect(channel.statusCode).toBe(201);
        }
    }
});
afterAll(() => w.t.close());

const list = (url: string, params: Record<string, unknown>, token = w.admin.access) => {
    const qs = Object.entries(params)
        .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
        .join('&');
    return w.call('GET', `${url}?${qs}`, token);
};
const names = (body: unknown) =>
    (Array.isArray(body) ? body : (body as { results: unknown[] }).results).map(
        (r) => (r as { name?: string; username?: string }).name ?? (r as { username: string }).username
    );

describe.each([
    ['/api/configurations', 'configurations', 'P-'],
    ['/api/servers', 'servers', 'P-srv-'],
    ['/api/monitors', 'monitors', 'P-mon-'],
    ['/api/notification-channels', 'notification-channels', 'P-chan-'],
])('%s', (url, resource, prefix) => {
    it('pages a sorted, filtered list and counts the whole of it in Content-Range', async () => {
        const filter = { q: prefix };
        const first = await list(url, { sort: ['name', 'ASC'], range: [0, 1], filter });
        expect(first.statusCode).toBe(200);
        expect(first.headers['content-range']).toBe(`${resource} 0-1/4`);
        expect(first.headers['access-control-expose-headers']).toBe('Content-Range');
        expect(names(first.json())).toEqual([`${prefix}a`, `${prefix}b`]);
        const second = await list(url, { sort: ['name', 'ASC'], range: [2, 3], filter });
        expect(second.headers['content-range']).toBe(`${resource} 2-3/4`);
        expect(names(second.json())).toEqual([`${prefix}c`, `${prefix}d`]);
        const past = await list(url, { sort: ['name', 'ASC'], range: [10, 19], filter });
        expect(past.json()).toEqual([]);
        expect(past.headers['content-range']).toBe(`${resource} 10-10/4`);
        const desc = await list(url, { sort: ['name', 'DESC'], range: [0, 0], filter });
        expect(names(desc.json())).toEqual([`${prefix}d`]);
    });

    it("never counts another company's rows, and shows them all to a super admin", async () => {
        const own = await list(url, { range: [0, 99] });
        expect(own.headers['content-range']).toMatch(new RegExp(`^${resource} 0-\\d+/4$`));
        expect(names(own.json()).every((n) => n.startsWith('P-'))).toBe(true);
        const all = await list(url, { range: [0, 99] }, w.root.access);
        expect(all.headers['content-range']).toMatch(/\/8$/);
        const globex = await list(url, { range: [0, 99], filter: { company_id: w.globex } }, w.root.access);
        expect(names(globex.json()).every((n) => n.startsWith('G-'))).toBe(true);
        expect(globex.headers['content-range']).toMatch(/\/4$/);
    });

    it('answers a bare call with the whole array and no Content-Range', async () => {
        const res = await w.call('GET', url, w.admin.access);
        expect(res.headers['content-range']).toBeUndefined();
        expect(res.json()).toHaveLength(4);
    });

    it('refuses a bad sort field, range or filter with a 400 naming the parameter', async () => {
        const badSort = await list(url, { sort: ['password', 'ASC'] });
        expect([badSort.statusCode, Object.keys(badSort.json().errors)]).toEqual([400, ['sort']]);
        const badOrder = await list(url, { sort: ['name', 'UP'] });
        expect([badOrder.statusCode, Object.keys(badOrder.json().errors)]).toEqual([400, ['sort']]);
        for (const range of ['[0]', '[3,1]', '[-1,5]', 'x']) {
            const res = await w.call('GET', `${url}?range=${encodeURIComponent(range)}`, w.admin.access);
            expect([res.statusCode, Object.keys(res.json().errors)]).toEqual([400, ['range']]);
        }
        for (const filter of ['{', '[1]', '{"nope":1}']) {
            const res = await w.call('GET', `${url}?filter=${encodeURIComponent(filter)}`, w.admin.access);
            expect([res.statusCode, Object.keys(res.json().errors)]).toEqual([400, ['filter']]);
        }
        const badId = await list(url, { filter: { id: 'x' } });
        expect([badId.statusCode, Object.keys(badId.json().errors)]).toEqual([400, ['id']]);
        // Beyond PostgreSQL's integer: refused here, not a 500 from the database.
        const hugeId = await list(url, { filter: { id: 99_999_999_999 } });
        expect([hugeId.statusCode, Object.keys(hugeId.json().errors)]).toEqual([400, ['id']]);
        const audit = await list('/api/audit/latest', { filter: { monitor_id: 99_999_999_999 } });
        expect([audit.statusCode, Object.keys(audit.json().errors)]).toEqual([400, ['monitor_id']]);
    });

    it("fetches react-admin's getMany ids, only the caller's", async () => {
        const rows = (await list(url, { filter: { q: prefix } })).json() as { id: number }[];
        const foreign = (await list(url, { range: [0, 0] }, w.other.access)).json() as { id: number }[];
        const ids = [rows[0]?.id, rows[1]?.id, foreign[0]?.id];
        const res = await list(url, { filter: { id: ids } });
        expect((res.json() as { id: number }[]).map((r) => r.id).sort()).toEqual([rows[0]?.id, rows[1]?.id].sort());
    });
});

describe('list-specific filters', () => {
    it('filters servers and monitors by configuration, monitors by server and type', async () => {
        const [conf] = (await list('/api/configurations', { filter: { q: 'P-a' } })).json();
        const servers = await list('/api/servers', { filter: { configuration_id: conf.id }, range: [0, 9] });
        expect(names(servers.json())).toEqual(['P-srv-a']);
        expect(servers.headers['content-range']).toBe('servers 0-0/1');
        const monitors = (await list('/api/monitors', { filter: { server_id: servers.json()[0].id } })).json();
        expect(names(monitors)).toEqual(['P-mon-a']);
        expect(names((await list('/api/monitors', { filter: { type: 'urlCheck' } })).json())).toEqual([]);
        expect((await list('/api/monitors', { filter: { type: 'nope' } })).json().errors).toHaveProperty('type');
    });

    it('pages the audit newest first, in the caller company only', async () => {
        const page = await list('/api/audit/latest', { range: [0, 2], filter: { q: 'P-' } });
        expect(page.headers['content-range']).toMatch(/^audit 0-2\/\d+$/);
        const total = Number(page.headers['content-range']?.toString().split('/')[1]);
        expect(total).toBe(16);
        const ids = page.json().map((e: { id: number }) => e.id);
        expect(ids).toEqual([...ids].sort((a, b) => b - a));
        const foreign = await list('/api/audit/latest', { range: [0, 2], filter: { q: 'G-' } });
        expect(foreign.headers['content-range']).toBe('audit 0-0/0');
        const oldest = await list('/api/audit/latest', { sort: ['id', 'ASC'], range: [0, 0] });
        expect(oldest.json()[0].message).toMatch(/P-c/);
    });

    it('pages users and companies inside results[]', async () => {
        const everyone = names((await w.call('GET', '/api/users', w.root.access)).json());
        const users = await list('/api/users', { sort: ['username', 'DESC'], range: [0, 1] }, w.root.access);
        expect(users.headers['content-range']).toBe(`users 0-1/${everyone.length}`);
        expect(names(users.json())).toEqual(everyone.sort().reverse().slice(0, 2));
        const acmeUsers = await list('/api/users', { filter: { company_id: w.acme }, range: [0, 9] }, w.root.access);
        expect(names(acmeUsers.json()).sort()).toEqual(['alice', 'bob']);
        const companies = await list('/api/companies', { filter: { q: 'glo' }, range: [0, 9] }, w.root.access);
        expect(companies.json().results.map((c: { name: string }) => c.name)).toEqual(['Globex']);
        expect(companies.headers['content-range']).toBe('companies 0-0/1');
    });
});
