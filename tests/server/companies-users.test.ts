import type { TestApp, Tokens } from './helpers';
import { auth, createTestApp, login, seedCompany, seedUser } from './helpers';

let t: TestApp;
let acme: number;
let root: Tokens;
let admin: Tokens;
let plain: Tokens;

beforeAll(async () => {
    t = await createTestApp();
    acme = await seedCompany(t.app, 'Acme');
    await seedUser(t.app, { username: 'root', isSuperAdmin: true, isAdmin: true });
    await seedUser(t.app, { username: 'acme-admin', companyId: acme, isAdmin: true });
    await seedUser(t.app, { username: 'acme-user', companyId: acme });
    root = await login(t.app, 'root');
    admin = await login(t.app, 'acme-admin');
    plain = await login(t.app, 'acme-user');
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url, headers: auth(token), payload });

describe('role matrix', () => {
    it.each([
        ['GET', '/api/companies'],
        ['POST', '/api/companies'],
        ['GET', '/api/users'],
        ['POST', '/api/users'],
        ['GET', '/api/users/1'],
        ['DELETE', '/api/companies/1'],
    ] as const)('%s %s is for super admins only', async (method, url) => {
        for (const who of [admin, plain]) {
            const res = await call(method, url, who.access, method === 'POST' ? { name: 'x' } : undefined);
            expect(res.statusCode).toBe(403);
        }
    });
});

describe('companies', () => {
    it('lists in results[], creates, reads, updates and deletes', async () => {
        const created = await call('POST', '/api/companies', root.access, { name: '  Globex  ', is_active: true });
        expect(created.statusCode).toBe(201);
        const id = created.json().id;
        expect(created.json()).toMatchObject({ name: 'Globex', is_active: true });
        const list = await call('GET', '/api/companies', root.access);
        expect(list.json().results.map((c: { name: string }) => c.name)).toContain('Globex');
        const put = await call('PUT', `/api/companies/${id}`, root.access, { name: 'Globex 2', is_active: false });
        expect(put.json()).toMatchObject({ id, name: 'Globex 2', is_active: false });
        expect((await call('DELETE', `/api/companies/${id}`, root.access)).statusCode).toBe(200);
        expect((await call('GET', `/api/companies/${id}`, root.access)).statusCode).toBe(404);
    });

    it('answers react-admin paging with Content-Range and still results[]', async () => {
        const res = await call('GET', '/api/companies?sort=["name","ASC"]&range=[0,0]', root.access);
        expect(res.headers['content-range']).toMatch(/^companies 0-0\/\d+$/);
        expect(res.json().results).toHaveLength(1);
    });

    it('names the field of a bad body and refuses unknown fields', async () => {
        const res = await call('POST', '/api/companies', root.access, { name: '   ', owner: 'me' });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toEqual({ name: 'Company name is required', owner: 'Unknown field owner' });
    });

    it('refuses with 409 and a sentence to delete a company that still owns users', async () => {
        const res = await call('DELETE', `/api/companies/${acme}`, root.access);
        expect(res.statusCode).toBe(409);
        expect(res.json().message).toMatch(/still owns 2 users/);
        expect((await call('GET', `/api/companies/${acme}`, root.access)).statusCode).toBe(200);
    });

    it('ends the sessions of its users when a company is deactivated', async () => {
        const cid = await seedCompany(t.app, 'Temp');
        await seedUser(t.app, { username: 'temp-user', companyId: cid });
        const tok = await login(t.app, 'temp-user');
        await call('PUT', `/api/companies/${cid}`, root.access, { name: 'Temp', is_active: false });
        expect((await call('GET', '/api/users/me', tok.access)).statusCode).toBe(401);
    });
});

describe('users', () => {
    it('creates a user without ever returning a password', async () => {
        const res = await call('POST', '/api/users', root.access, {
            username: 'dave',
            is_active: true,
            is_admin: false,
            is_super_admin: false,
            company_id: acme,
            raw_password: 'dave-password',
        });
        expect(res.statusCode).toBe(201);
        expect(res.body).not.toMatch(/password/i);
        expect(res.json()).toMatchObject({ username: 'dave', company: { id: acme, name: 'Acme' } });
        await login(t.app, 'dave', 'dave-password');
    });

    it.each([
        [{ username: '', company_id: acme, raw_password: 'long-enough' }, 'username', 'Username is required'],
        [{ username: 'erin', company_id: null, raw_password: 'long-enough' }, 'company_id', 'Please select a company'],
        [{ username: 'erin', company_id: acme }, 'raw_password', 'Password is required for new users'],
        [
            { username: 'erin', company_id: acme, raw_password: '' },
            'raw_password',
            'Password is required for new users',
        ],
        [{ username: 'erin', company_id: acme, raw_password: 'x', is_root: true }, 'is_root', 'Unknown field is_root'],
    ])('refuses %j naming %s', async (payload, field, text) => {
        const res = await call('POST', '/api/users', root.access, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().errors[field]).toBe(text);
    });

    it('keeps the password when raw_password is empty, and changing it ends the sessions', async () => {
        const id = await seedUser(t.app, { username: 'frank', companyId: acme, password: 'frank-password' });
        const body = { username: 'frank', is_active: true, is_admin: false, is_super_admin: false, company_id: acme };
        const session = await login(t.app, 'frank', 'frank-password');
        expect((await call('PUT', `/api/users/${id}`, root.access, { ...body, raw_password: '' })).statusCode).toBe(
            200
        );
        expect((await call('GET', '/api/users/me', session.access)).statusCode).toBe(200);
        await call('PUT', `/api/users/${id}`, root.access, { ...body, raw_password: 'frank-new-password' });
        expect((await call('GET', '/api/users/me', session.access)).statusCode).toBe(401);
        const refreshed = await t.app.inject({ method: 'POST', url: '/api/refresh', headers: auth(session.refresh) });
        expect(refreshed.statusCode).toBe(401);
        await login(t.app, 'frank', 'frank-new-password');
    });

    it('disabling a user ends their sessions at once', async () => {
        const id = await seedUser(t.app, { username: 'gina', companyId: acme });
        const session = await login(t.app, 'gina');
        const body = { username: 'gina', is_active: false, is_admin: false, is_super_admin: false, company_id: acme };
        await call('PUT', `/api/users/${id}`, root.access, body);
        expect((await call('GET', '/api/users/me', session.access)).statusCode).toBe(401);
    });

    it('lists users in results[] with their company', async () => {
        const res = await call('GET', '/api/users', root.access);
        const alice = res.json().results.find((u: { username: string }) => u.username === 'acme-admin');
        expect(alice).toMatchObject({ is_admin: true, company: { id: acme, name: 'Acme' } });
    });
});
