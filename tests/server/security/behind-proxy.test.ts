import { eq } from 'drizzle-orm';
import { ConfigError, loadConfig } from '../../../server/config';
import { users } from '../../../server/db/schema';
import type { TestApp } from '../helpers';
import { createTestApp, seedCompany, seedUser } from '../helpers';

/** Behind a reverse proxy: sign-in locks and limits key on the client the trusted proxy names, never on the proxy. */
let t: TestApp;
let acme: number;

beforeAll(async () => {
    t = await createTestApp({ trustProxy: ['10.1.0.0/16', '192.0.2.7'], loginRateLimitPerMinute: 12 });
    acme = await seedCompany(t.app, 'Acme');
});
afterAll(() => t.close());

const attempt = (peer: string, username: string, password: string, forwardedFor?: string) =>
    t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username, password },
        remoteAddress: peer,
        headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    });
// The account-wide slow-down stays after a burst; clearing it keeps the test about which address is locked.
const calm = (username: string) =>
    t.app.ctx.db.update(users).set({ failedLogins: 0 }).where(eq(users.username, username));
const guesses = (peer: string, username: string, n: number, forwardedFor?: string) =>
    Promise.all(Array.from({ length: n }, (_, i) => attempt(peer, username, `wrong-${i}`, forwardedFor)));

describe('TRUST_PROXY', () => {
    it('a guesser behind the trusted proxy locks only its own address, the owner behind the same proxy gets in', async () => {
        await seedUser(t.app, { username: 'boss', companyId: acme, isAdmin: true });
        const refused = await guesses('10.1.0.5', 'boss', 10, '203.0.113.66');
        expect(refused.map((r) => r.statusCode)).toEqual(Array(10).fill(401));
        expect((await attempt('10.1.0.5', 'boss', 'password-123', '203.0.113.66')).statusCode).toBe(401);
        await calm('boss');
        expect((await attempt('10.1.0.5', 'boss', 'password-123', '198.51.100.20')).statusCode).toBe(200);
    });

    it('the login limit counts per forwarded client, so one client cannot exhaust it for another', async () => {
        await seedUser(t.app, { username: 'limited', companyId: acme });
        const flood = await guesses('192.0.2.7', 'nobody', 12, '203.0.113.77');
        expect(flood.map((r) => r.statusCode)).toEqual(Array(12).fill(401));
        expect((await attempt('192.0.2.7', 'nobody', 'x', '203.0.113.77')).statusCode).toBe(429);
        expect((await attempt('192.0.2.7', 'limited', 'password-123', '198.51.100.21')).statusCode).toBe(200);
    });

    it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
        await seedUser(t.app, { username: 'victim', companyId: acme });
        // Each guess claims another client; untrusted, they all count for the peer that sent them.
        const spoofed = await Promise.all(
            Array.from({ length: 10 }, (_, i) => attempt('172.16.9.9', 'victim', `wrong-${i}`, `203.0.113.${i + 1}`))
        );
        expect(spoofed.map((r) => r.statusCode)).toEqual(Array(10).fill(401));
        expect((await attempt('172.16.9.9', 'victim', 'password-123', '198.51.100.22')).statusCode).toBe(401);
        await calm('victim');
        expect((await attempt('172.16.9.10', 'victim', 'password-123')).statusCode).toBe(200);
    });

    it('reads a list of addresses and CIDRs, and names the variable when an entry is not one', () => {
        const env = { APP_SECRET: 'x'.repeat(32) };
        expect(loadConfig(env).trustProxy).toEqual([]);
        expect(loadConfig({ ...env, TRUST_PROXY: '127.0.0.1, 10.0.0.0/8 ::1' }).trustProxy).toEqual([
            '127.0.0.1',
            '10.0.0.0/8',
            '::1',
        ]);
        for (const bad of ['proxy.local', '10.0.0.0/33', '::1/129', '10.0.0.1/8/2']) {
            expect(() => loadConfig({ ...env, TRUST_PROXY: bad })).toThrow(ConfigError);
            expect(() => loadConfig({ ...env, TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
        }
    });
});
