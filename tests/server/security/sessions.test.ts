import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { auditEntries, refreshTokens, users } from '../../../server/db/schema';
import type { TestApp } from '../helpers';
import { resetPassword, unlockUser } from '../../../server/services/account-recovery';
import { auth, createTestApp, login, seedCompany, seedUser } from '../helpers';

/** Security checklist items 1–10 (architecture §4): brute force, JWT handling, refresh families, session ends. */
const scryptCosts = vi.hoisted(() => [] as number[]);
vi.mock('node:crypto', async (importOriginal) => {
    const crypto = await importOriginal<typeof import('node:crypto')>();
    const scrypt = (...args: Parameters<typeof crypto.scrypt>) => {
        const options = args[3];
        scryptCosts.push(typeof options === 'object' ? (options.N ?? options.cost ?? 0) : 0);
        return (crypto.scrypt as (...a: unknown[]) => void)(...args);
    };
    return { ...crypto, scrypt };
});
let t: TestApp;
let acme: number;
let root: string;

beforeAll(async () => {
    t = await createTestApp();
    acme = await seedCompany(t.app, 'Acme');
    await seedUser(t.app, { username: 'root', isSuperAdmin: true, isAdmin: true });
    root = (await login(t.app, 'root')).access;
});
afterAll(() => t.close());

const post = (url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers });
const me = (token: string) => t.app.inject({ url: '/api/users/me', headers: auth(token) });
const failures = async (id: number) =>
    (await t.app.ctx.db.select().from(users).where(eq(users.id, id)))[0]?.failedLogins;
const setFailures = (id: number, failedLogins: number, lastFailedLoginAt: Date | null) =>
    t.app.ctx.db.update(users).set({ failedLogins, lastFailedLoginAt }).where(eq(users.id, id));

describe('#1 brute force on one account', () => {
    it('counts every failure of a parallel burst (no lost updates)', async () => {
        const id = await seedUser(t.app, { username: 'burst', companyId: acme });
        const answers = await Promise.all(
            Array.from({ length: 8 }, (_, i) => post('/api/login', { username: 'burst', password: `wrong-${i}` }))
        );
        expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(401));
        expect(await failures(id)).toBe(8);
    });

    const from = (address: string, username: string, password: string) =>
        t.app.inject({
            method: 'POST',
            url: '/api/login',
            payload: { username, password },
            remoteAddress: address,
        });
    const burst = (address: string, username: string, n: number) =>
        Promise.all(Array.from({ length: n }, (_, i) => from(address, username, `wrong-${i}`)));

    it('locks the guessing address after 10 failures, never the owner at another address', async () => {
        const id = await seedUser(t.app, { username: 'owner', companyId: acme });
        expect((await burst('10.0.0.1', 'owner', 10)).map((r) => r.statusCode)).toEqual(Array(10).fill(401));
        const guesser = await from('10.0.0.1', 'owner', 'password-123');
        expect(guesser.statusCode).toBe(401);
        expect(guesser.json()).toEqual({ message: 'Invalid username or password' });
        expect(await failures(id)).toBe(10);
        const audit = await t.app.ctx.db.select().from(auditEntries).where(eq(auditEntries.actorUserId, id));
        expect(audit.at(-1)?.message).toMatch(/Failed login for user "owner" from 10\.0\.0\.1.*temporarily locked/);
        // The slow-down stays (it is per account); only the lock is per address.
        await setFailures(id, 0, new Date());
        expect((await from('10.0.0.2', 'owner', 'password-123')).statusCode).toBe(200);
        expect((await from('10.0.0.1', 'owner', 'password-123')).statusCode).toBe(401);
    });

    it('past the global cap, an address that failed is refused but a clean one still gets in', async () => {
        const id = await seedUser(t.app, { username: 'capped', companyId: acme });
        expect((await from('10.0.1.1', 'capped', 'one-guess')).statusCode).toBe(401);
        // 50 more failures from elsewhere (set directly: counting them would only add the slow-down's waits).
        await setFailures(id, 51, new Date());
        expect((await from('10.0.1.1', 'capped', 'password-123')).statusCode).toBe(401);
        expect((await from('10.0.1.2', 'capped', 'password-123')).statusCode).toBe(200);
    });

    it('an unknown username locks exactly like a real one', async () => {
        await burst('10.0.3.1', 'nobody-here', 10);
        const locked = await from('10.0.3.1', 'nobody-here', 'password-123');
        const audit = await t.app.ctx.db.select().from(auditEntries);
        expect(locked.json()).toEqual({ message: 'Invalid username or password' });
        expect(audit.at(-1)?.message).toMatch(/"nobody-here" from 10\.0\.3\.1.*temporarily locked/);
    });

    it('the console host unlocks an account even when owner and guesser share one address (a proxy)', async () => {
        const id = await seedUser(t.app, { username: 'proxied', companyId: acme });
        await burst('10.0.2.1', 'proxied', 10);
        expect((await from('10.0.2.1', 'proxied', 'password-123')).statusCode).toBe(401);
        await unlockUser(t.app.ctx.db, 'proxied');
        expect(await failures(id)).toBe(0);
        expect((await from('10.0.2.1', 'proxied', 'password-123')).statusCode).toBe(200);
    });

    it('reset-password from the console host sets a new password and ends the sessions', async () => {
        await seedUser(t.app, { username: 'forgot', companyId: acme });
        const old = await login(t.app, 'forgot');
        await resetPassword(t.app.ctx.db, 'forgot', 'brand-new-password');
        expect((await me(old.access)).statusCode).toBe(401);
        expect((await post('/api/refresh', undefined, auth(old.refresh))).statusCode).toBe(401);
        expect((await post('/api/login', { username: 'forgot', password: 'password-123' })).statusCode).toBe(401);
        expect((await post('/api/login', { username: 'forgot', password: 'brand-new-password' })).statusCode).toBe(200);
        await expect(unlockUser(t.app.ctx.db, 'no-such-user')).rejects.toThrow('No user "no-such-user"');
    });

    it('lifts the lock once the run of failures is over an hour old', async () => {
        const id = await seedUser(t.app, { username: 'unlocked', companyId: acme });
        await setFailures(id, 80, new Date(Date.now() - 61 * 60_000));
        const res = await post('/api/login', { username: 'unlocked', password: 'password-123' });
        expect(res.statusCode).toBe(200);
        expect(await failures(id)).toBe(0);
    });

    it('starts a new run of failures after an hour without one', async () => {
        const id = await seedUser(t.app, { username: 'stale', companyId: acme });
        await setFailures(id, 40, new Date(Date.now() - 2 * 3600_000));
        expect((await post('/api/login', { username: 'stale', password: 'nope-nope' })).statusCode).toBe(401);
        expect(await failures(id)).toBe(1);
    });
});

describe('#2 credential stuffing', () => {
    it('answers unknown and known usernames identically, after the same password work', async () => {
        const id = await seedUser(t.app, { username: 'known', companyId: acme });
        const unknown = await post('/api/login', { username: 'unknown-user', password: 'password-x' });
        const known = await post('/api/login', { username: 'known', password: 'password-x' });
        expect(unknown.statusCode).toBe(known.statusCode);
        expect(unknown.body).toBe(known.body);
        // The time of an answer is the scrypt derivation it runs; counting them (and their cost) tells what a
        // clock on a shared machine cannot: an unknown name costs exactly what a wrong password does.
        const work = async (username: string) => {
            await setFailures(id, 0, null);
            scryptCosts.length = 0;
            await post('/api/login', { username, password: 'password-x' });
            return [...scryptCosts];
        };
        const knownWork = await work('known');
        expect(knownWork).toEqual([2 ** 15]);
        expect(await work('another-unknown-user')).toEqual(knownWork);
    });

    // 20 scrypt derivations one after another: 25 s of the default 30 in CI, beside the other passes.
    it('answers 429 with Retry-After after 20 attempts a minute from one IP', { timeout: 90_000 }, async () => {
        const limited = await createTestApp({ loginRateLimitPerMinute: 20 });
        try {
            const codes: number[] = [];
            let last = null as Awaited<ReturnType<typeof limited.app.inject>> | null;
            for (let i = 0; i < 21; i++) {
                last = await limited.app.inject({
                    method: 'POST',
                    url: '/api/login',
                    payload: { username: `user-${i}`, password: 'password-123' },
                });
                codes.push(last.statusCode);
            }
            expect(codes.slice(0, 20)).toEqual(Array(20).fill(401));
            expect(codes[20]).toBe(429);
            expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
            expect(last?.json().message).toMatch(/^Too many attempts/);
            expect(last?.headers['content-security-policy']).toContain("frame-ancestors 'none'");
        } finally {
            await limited.close();
        }
    });
});

describe('#3 login-hash DoS', () => {
    it('refuses long passwords before hashing and still takes 64+ characters', async () => {
        await seedUser(t.app, { username: 'longpw', companyId: acme, password: 'p'.repeat(100) });
        expect((await post('/api/login', { username: 'longpw', password: 'p'.repeat(100) })).statusCode).toBe(200);
        const big = await post('/api/login', { username: 'longpw', password: 'p'.repeat(5000) });
        expect(big.statusCode).toBe(400);
        expect(big.json().errors).toHaveProperty('password');
        expect((await post('/api/login', { username: 'longpw', password: 'p'.repeat(1024 * 1024) })).statusCode).toBe(
            413
        );
    });
});

describe('#4–#6 access tokens', () => {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    let good: string;
    let claims: Record<string, unknown>;

    beforeAll(async () => {
        await seedUser(t.app, { username: 'jwt', companyId: acme, isAdmin: true });
        good = (await login(t.app, 'jwt')).access;
        claims = JSON.parse(Buffer.from(good.split('.')[1] ?? '', 'base64url').toString());
    });

    const sign = (payload: Record<string, unknown>, alg = 'HS256', key = t.app.ctx.keys.accessToken) =>
        new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);

    it('accepts the token the server issued', async () => {
        expect((await me(good)).statusCode).toBe(200);
    });

    it('refuses alg none and RS256/ES256 headers over a valid payload', async () => {
        const [, p, s] = good.split('.');
        for (const alg of ['none', 'None', 'RS256', 'ES256', 'PS256']) {
            const res = await me(`${b64({ alg, typ: 'JWT' })}.${p}.${alg.toLowerCase() === 'none' ? '' : s}`);
            expect(res.statusCode).toBe(401);
            expect(res.json()).toEqual({ message: 'Authentication required' });
        }
    });

    it('refuses another HMAC algorithm with the right key, and HS256 signed with PEM text', async () => {
        expect((await me(await sign(claims, 'HS512'))).statusCode).toBe(401);
        const pem = new TextEncoder().encode(
            '\n -----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n'
        );
        expect((await me(await sign(claims, 'HS256', pem))).statusCode).toBe(401);
    });

    it.each([
        ['an expired token', { exp: Math.floor(Date.now() / 1000) - 10 }],
        ['a not-yet-valid token', { nbf: Math.floor(Date.now() / 1000) + 3600 }],
        ['a wrong audience', { aud: 'someone-else' }],
        ['a wrong issuer', { iss: 'someone-else' }],
        ['a refresh-typed token', { typ: 'refresh' }],
        ['a token without a version', { tv: undefined }],
        ['an old token version', { tv: -1 }],
        ['a non-numeric subject', { sub: 'root' }],
    ])('refuses %s signed with the right key', async (_what, patch) => {
        expect((await me(await sign({ ...claims, ...patch }))).statusCode).toBe(401);
    });

    it('refuses a refresh token as an access token and an access token as a refresh token', async () => {
        const tokens = await login(t.app, 'jwt');
        expect((await me(tokens.refresh)).statusCode).toBe(401);
        expect((await post('/api/refresh', undefined, auth(tokens.access))).statusCode).toBe(401);
    });
});

describe('#7 refresh reuse', () => {
    it('revokes the whole family and writes an audit entry', async () => {
        await seedUser(t.app, { username: 'reuse', companyId: acme });
        const first = await login(t.app, 'reuse');
        const r2 = (await post('/api/refresh', undefined, auth(first.refresh))).json().refreshToken.token as string;
        // Replayed from elsewhere: the same browser's second tab (same address, within seconds) would be let through.
        const replay = await t.app.inject({
            method: 'POST',
            url: '/api/refresh',
            headers: auth(first.refresh),
            remoteAddress: '203.0.113.9',
        });
        expect(replay.statusCode).toBe(401);
        expect((await post('/api/refresh', undefined, auth(r2))).statusCode).toBe(401);
        const audit = await t.app.ctx.db.select().from(auditEntries);
        expect(audit.some((r) => r.message.startsWith('Refresh token reused'))).toBe(true);
    });
});

describe('#8 absolute refresh lifetime', () => {
    const hours = (iso: string) => (new Date(iso).getTime() - Date.now()) / 3600_000;

    it('is 12 h for admins and 7 d for users, and rotation never extends it', async () => {
        await seedUser(t.app, { username: 'adm8', companyId: acme, isAdmin: true });
        await seedUser(t.app, { username: 'usr8', companyId: acme });
        const adm = (await post('/api/login', { username: 'adm8', password: 'password-123' })).json();
        const usr = (await post('/api/login', { username: 'usr8', password: 'password-123' })).json();
        expect(hours(adm.refreshToken.expiresAt)).toBeCloseTo(12, 1);
        expect(hours(usr.refreshToken.expiresAt)).toBeCloseTo(7 * 24, 1);
        const rotated = (await post('/api/refresh', undefined, auth(adm.refreshToken.token))).json();
        expect(rotated.refreshToken.expiresAt).toBe(adm.refreshToken.expiresAt);
    });

    it('refuses a refresh after the absolute lifetime even when kept alive', async () => {
        await seedUser(t.app, { username: 'adm8b', companyId: acme, isAdmin: true });
        let token = (await login(t.app, 'adm8b')).refresh;
        try {
            for (const h of [4, 8, 11.9]) {
                vi.useFakeTimers({ now: Date.now() + h * 3600_000, toFake: ['Date'] });
                const res = await post('/api/refresh', undefined, auth(token));
                expect(res.statusCode).toBe(200);
                token = res.json().refreshToken.token;
                vi.useRealTimers();
            }
            vi.useFakeTimers({ now: Date.now() + 12.1 * 3600_000, toFake: ['Date'] });
            expect((await post('/api/refresh', undefined, auth(token))).statusCode).toBe(401);
        } finally {
            vi.useRealTimers();
        }
    });
});

describe('#9/#10 sessions end', () => {
    const put = (id: number, body: object) =>
        t.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers: auth(root), payload: body });

    it('on delete: access and refresh tokens stop working', async () => {
        const id = await seedUser(t.app, { username: 'gone', companyId: acme });
        const tokens = await login(t.app, 'gone');
        const del = await t.app.inject({ method: 'DELETE', url: `/api/users/${id}`, headers: auth(root) });
        expect(del.statusCode).toBe(200);
        expect((await me(tokens.access)).statusCode).toBe(401);
        expect((await post('/api/refresh', undefined, auth(tokens.refresh))).statusCode).toBe(401);
        expect(await t.app.ctx.db.select().from(refreshTokens).where(eq(refreshTokens.userId, id))).toEqual([]);
    });

    it('on role downgrade and on a move to another company', async () => {
        const other = await seedCompany(t.app, 'Other');
        const base = { username: 'demoted', is_active: true, is_super_admin: false, company_id: acme };
        const id = await seedUser(t.app, { username: 'demoted', companyId: acme, isAdmin: true });
        let tokens = await login(t.app, 'demoted');
        expect((await put(id, { ...base, is_admin: false })).statusCode).toBe(200);
        expect((await me(tokens.access)).statusCode).toBe(401);
        expect((await post('/api/refresh', undefined, auth(tokens.refresh))).statusCode).toBe(401);
        tokens = await login(t.app, 'demoted');
        expect((await put(id, { ...base, is_admin: false, company_id: other })).statusCode).toBe(200);
        expect((await me(tokens.access)).statusCode).toBe(401);
        expect((await post('/api/refresh', undefined, auth(tokens.refresh))).statusCode).toBe(401);
    });

    it('keeps sessions on an edit that changes nothing about access', async () => {
        const id = await seedUser(t.app, { username: 'renamed', companyId: acme });
        const tokens = await login(t.app, 'renamed');
        const body = {
            username: 'renamed2',
            is_active: true,
            is_admin: false,
            is_super_admin: false,
            company_id: acme,
        };
        expect((await put(id, body)).statusCode).toBe(200);
        expect((await me(tokens.access)).statusCode).toBe(200);
    });
});
