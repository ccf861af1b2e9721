import { SignJWT } from 'jose';
import type { TestApp } from './helpers';
import { REFRESH_REUSE_GRACE_MS } from '../../server/services/sessions';
import { auth, createTestApp, login, seedCompany, seedUser } from './helpers';

let t: TestApp;
let acme: number;

beforeAll(async () => {
    t = await createTestApp();
    acme = await seedCompany(t.app, 'Acme');
    await seedUser(t.app, { username: 'alice', companyId: acme, isAdmin: true });
    await seedUser(t.app, { username: 'idle', companyId: acme, isActive: false });
    const sleepy = await seedCompany(t.app, 'Sleepy', false);
    await seedUser(t.app, { username: 'bob', companyId: sleepy });
});
afterAll(() => t.close());

const post = (url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers });

describe('POST /api/login', () => {
    it('answers both tokens with future expiry dates and lets the user load themself', async () => {
        const res = await post('/api/login', { username: 'alice', password: 'password-123' });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(new Date(body.accessToken.expiresAt).getTime()).toBeGreaterThan(Date.now());
        expect(new Date(body.refreshToken.expiresAt).getTime()).toBeGreaterThan(
            new Date(body.accessToken.expiresAt).getTime()
        );
        const me = await t.app.inject({ url: '/api/users/me', headers: auth(body.accessToken.token) });
        expect(me.json()).toMatchObject({
            username: 'alice',
            is_admin: true,
            is_super_admin: false,
            company: { id: acme, name: 'Acme' },
        });
        expect(me.body).not.toContain('password');
    });

    it.each([
        ['an unknown user', { username: 'nobody', password: 'password-123' }],
        ['a wrong password', { username: 'alice', password: 'wrong-password' }],
        ['an inactive user', { username: 'idle', password: 'password-123' }],
        ['a user of an inactive company', { username: 'bob', password: 'password-123' }],
    ])('gives %s the same 401 answer', async (_what, payload) => {
        const res = await post('/api/login', payload);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ message: 'Invalid username or password' });
    });

    it('names the missing field of a bad body', async () => {
        const res = await post('/api/login', { username: 'alice' });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toHaveProperty('password');
    });

    it('refuses a password body over the size cap before hashing it', async () => {
        const res = await post('/api/login', { username: 'alice', password: 'x'.repeat(20_000) });
        expect(res.statusCode).toBe(413);
    });

    it('writes an audit entry per failed login', async () => {
        await post('/api/login', { username: 'alice', password: 'nope-nope' });
        const rows = await t.app.ctx.db.query.auditEntries.findMany();
        expect(rows.some((r) => r.message.includes('Failed login for user "alice"'))).toBe(true);
    });
});

describe('POST /api/refresh', () => {
    const pastGrace = () => vi.useFakeTimers({ now: Date.now() + REFRESH_REUSE_GRACE_MS + 1000, toFake: ['Date'] });
    afterEach(() => vi.useRealTimers());

    it('rotates the refresh token, and a replay of the old one after the grace revokes the whole family', async () => {
        const first = await login(t.app, 'alice');
        const r1 = await post('/api/refresh', undefined, auth(first.refresh));
        expect(r1.statusCode).toBe(200);
        const second = r1.json().refreshToken.token as string;
        expect(second).not.toBe(first.refresh);
        pastGrace();
        const replay = await post('/api/refresh', undefined, auth(first.refresh));
        expect(replay.statusCode).toBe(401);
        expect(replay.json().message).toMatch(/refresh token was used twice/);
        const afterReuse = await post('/api/refresh', undefined, auth(second));
        expect(afterReuse.statusCode).toBe(401);
        expect(afterReuse.json().message).toMatch(/refresh token was used twice/);
    });

    it("answers a just-rotated token again from the same address with the same pair, as two tabs' refreshes do", async () => {
        const first = await login(t.app, 'alice');
        const [a, b] = await Promise.all([
            post('/api/refresh', undefined, auth(first.refresh)),
            post('/api/refresh', undefined, auth(first.refresh)),
        ]);
        expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
        expect(b.json()).toEqual(a.json());
        const again = await post('/api/refresh', undefined, auth(first.refresh));
        expect(again.statusCode).toBe(200);
        expect(again.json()).toEqual(a.json());
        const me = await t.app.inject({ url: '/api/users/me', headers: auth(a.json().accessToken.token) });
        expect(me.statusCode).toBe(200);
        const next = await post('/api/refresh', undefined, auth(a.json().refreshToken.token));
        expect(next.statusCode).toBe(200);
    });

    it('revokes the sign-in when the rotated token comes back from another address, even within the grace', async () => {
        const first = await login(t.app, 'alice');
        const r1 = await post('/api/refresh', undefined, auth(first.refresh));
        expect(r1.statusCode).toBe(200);
        const thief = await t.app.inject({
            method: 'POST',
            url: '/api/refresh',
            headers: auth(first.refresh),
            remoteAddress: '203.0.113.9',
        });
        expect(thief.statusCode).toBe(401);
        const owner = await post('/api/refresh', undefined, auth(r1.json().refreshToken.token));
        expect(owner.statusCode).toBe(401);
    });

    it('says why a sign-in ended: signed out, password changed', async () => {
        const out = await login(t.app, 'alice');
        expect((await post('/api/logout', undefined, auth(out.refresh))).statusCode).toBe(204);
        const afterLogout = await post('/api/refresh', undefined, auth(out.refresh));
        expect(afterLogout.statusCode).toBe(401);
        expect(afterLogout.json().message).toBe('You were signed out (in another tab or window), please sign in again');

        const id = await seedUser(t.app, { username: 'frank', companyId: acme });
        const frank = await login(t.app, 'frank');
        const admin = await login(t.app, 'admin', 'admin-password-1');
        const changed = await t.app.inject({
            method: 'PUT',
            url: `/api/users/${id}`,
            headers: auth(admin.access),
            payload: {
                username: 'frank',
                company_id: acme,
                is_active: true,
                is_admin: false,
                is_super_admin: false,
                raw_password: 'a-new-password',
            },
        });
        expect(changed.statusCode).toBe(200);
        const afterChange = await post('/api/refresh', undefined, auth(frank.refresh));
        expect(afterChange.statusCode).toBe(401);
        expect(afterChange.json().message).toBe('Your password was changed, please sign in again');
    });

    it('refuses a missing or made-up token, and an access token used as a refresh token', async () => {
        const tokens = await login(t.app, 'alice');
        expect((await post('/api/refresh')).statusCode).toBe(401);
        expect((await post('/api/refresh', undefined, auth('made-up'))).statusCode).toBe(401);
        expect((await post('/api/refresh', undefined, auth(tokens.access))).statusCode).toBe(401);
    });
});

describe('access tokens', () => {
    const me = (token: string) => t.app.inject({ url: '/api/users/me', headers: auth(token) });
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

    it('refuses requests without a token', async () => {
        const res = await t.app.inject({ url: '/api/users/me' });
        expect(res.statusCode).toBe(401);
    });

    it('refuses alg:none, a tampered payload, a foreign key and a refresh token', async () => {
        const { access, refresh } = await login(t.app, 'alice');
        const [h, p, s] = access.split('.');
        const payload = JSON.parse(Buffer.from(p ?? '', 'base64url').toString());
        const none = `${b64({ alg: 'none', typ: 'JWT' })}.${p}.`;
        const tampered = `${h}.${b64({ ...payload, sub: '1' })}.${s}`;
        const foreign = await new SignJWT(payload)
            .setProtectedHeader({ alg: 'HS256' })
            .sign(new TextEncoder().encode('some-other-secret-some-other-secret'));
        for (const token of [none, tampered, foreign, refresh]) expect((await me(token)).statusCode).toBe(401);
    });

    it('refuses an expired token', async () => {
        const short = await createTestApp({ accessTokenTtlSeconds: 5 });
        try {
            await seedUser(short.app, { username: 'carol', isSuperAdmin: true });
            const { access } = await login(short.app, 'carol');
            vi.useFakeTimers({ now: Date.now() + 6000, toFake: ['Date'] });
            const res = await short.app.inject({ url: '/api/users/me', headers: auth(access) });
            expect(res.statusCode).toBe(401);
        } finally {
            vi.useRealTimers();
            await short.close();
        }
    });
});

describe('the first start', () => {
    it('created the configured super admin', async () => {
        const { access } = await login(t.app, 'admin', 'admin-password-1');
        const me = await t.app.inject({ url: '/api/users/me', headers: auth(access) });
        expect(me.json()).toMatchObject({ username: 'admin', is_super_admin: true });
    });
});
