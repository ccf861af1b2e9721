import { auditEntries } from '../../server/db/schema';
import type { TestApp } from './helpers';
import { auth, createTestApp, login, seedCompany, seedUser } from './helpers';

let t: TestApp;
let acme: number;
let globex: number;

beforeAll(async () => {
    t = await createTestApp();
    acme = await seedCompany(t.app, 'Acme');
    globex = await seedCompany(t.app, 'Globex');
    await seedUser(t.app, { username: 'acme-user', companyId: acme });
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    await t.app.ctx.db.insert(auditEntries).values([
        { companyId: acme, message: 'acme first', createdAt: at(1), configurationId: 1, configurationName: 'Hub' },
        { companyId: globex, message: 'globex secret', createdAt: at(2) },
        {
            companyId: acme,
            message: 'acme monitor',
            createdAt: at(3),
            monitorId: 7,
            monitorName: 'Blocks',
            serverId: 2,
            serverName: 'val-1',
        },
        { companyId: acme, message: 'acme last', createdAt: at(4) },
    ]);
});
afterAll(() => t.close());

const get = async (username: string, url: string, password?: string) => {
    const { access } = await login(t.app, username, password);
    return t.app.inject({ url, headers: auth(access) });
};

describe('GET /api/audit/latest', () => {
    it("shows a user only their company's entries, newest first, with linked objects", async () => {
        const res = await get('acme-user', '/api/audit/latest');
        expect(res.json().map((e: { message: string }) => e.message)).toEqual([
            'acme last',
            'acme monitor',
            'acme first',
        ]);
        expect(res.json()[1]).toMatchObject({
            monitor: { id: 7, name: 'Blocks' },
            server: { id: 2, name: 'val-1' },
            configuration: null,
        });
        expect(res.body).not.toContain('globex secret');
    });

    it("narrows to one monitor's history and pages with Content-Range", async () => {
        const one = await get('acme-user', `/api/audit/latest?filter=${encodeURIComponent('{"monitor_id":7}')}`);
        expect(one.json().map((e: { message: string }) => e.message)).toEqual(['acme monitor']);
        const page = await get('acme-user', '/api/audit/latest?range=[0,1]');
        expect(page.headers['content-range']).toBe('audit 0-1/3');
        expect(page.json()).toHaveLength(2);
    });

    it('filters by configuration, server and monitor names and by text, case-insensitively, within the company', async () => {
        const messages = async (filter: object, user = 'acme-user') =>
            (await get(user, `/api/audit/latest?filter=${encodeURIComponent(JSON.stringify(filter))}`))
                .json()
                .map((e: { message: string }) => e.message);
        expect(await messages({ configuration: 'hub' })).toEqual(['acme first']);
        expect(await messages({ server: 'VAL' })).toEqual(['acme monitor']);
        expect(await messages({ monitor: 'block' })).toEqual(['acme monitor']);
        expect(await messages({ q: 'LAST' })).toEqual(['acme last']);
        expect(await messages({ q: 'acme', server: 'val' })).toEqual(['acme monitor']);
        // Another company's entries stay out, whatever the text.
        expect(await messages({ q: 'secret' })).toEqual([]);
        // A typed wildcard is taken literally.
        expect(await messages({ q: '%' })).toEqual([]);
        const long = await get(
            'acme-user',
            `/api/audit/latest?filter=${encodeURIComponent(JSON.stringify({ q: 'x'.repeat(201) }))}`
        );
        expect(long.statusCode).toBe(400);
        expect(long.json().errors.q).toBe('q must be a text of at most 200 characters');
    });

    it('shows a super admin every company', async () => {
        const res = await get('admin', '/api/audit/latest', 'admin-password-1');
        expect(res.body).toContain('globex secret');
    });
});
