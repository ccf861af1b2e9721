import { eq } from 'drizzle-orm';
import { auditEntries } from '../../../server/db/schema';
import { seedCompany, seedUser } from '../helpers';
import { type ClusterApps, clusterApps } from './apps';

/**
 * Sign-in limits in the cluster profile: failures spread over two `web` processes lock out and rate-limit as they
 * would on one (the embedded profile's rules are tests/server/security/sessions.test.ts').
 */
let c: ClusterApps;

beforeAll(async () => {
    c = await clusterApps(2, 12, { loginRateLimitPerMinute: 1000 });
});
afterAll(() => c?.close());

/** The app standing for process `i`. */
const web = (i: number) => c.web(i);

const from = (app: number, address: string, username: string, password: string) =>
    web(app).inject({
        method: 'POST',
        url: '/api/login',
        payload: { username, password },
        remoteAddress: address,
    });
/** `n` wrong guesses at once on each of the two processes. */
const burst = (address: string, username: string, n: number) =>
    Promise.all(Array.from({ length: 2 * n }, (_, i) => from(i % 2, address, username, `wrong-${i}`)));

it('locks the guessing address after 10 failures spread over two processes, on both', async () => {
    const app = web(0);
    await seedUser(app, { username: 'owner', companyId: await seedCompany(app, 'Acme') });
    expect((await burst('10.0.0.1', 'owner', 5)).map((r) => r.statusCode)).toEqual(Array(10).fill(401));
    expect((await from(0, '10.0.0.1', 'owner', 'password-123')).statusCode).toBe(401);
    expect((await from(1, '10.0.0.1', 'owner', 'password-123')).statusCode).toBe(401);
    const audit = await app.ctx.db.select().from(auditEntries).orderBy(auditEntries.id);
    expect(audit.at(-1)?.message).toMatch(/Failed login for user "owner" from 10\.0\.0\.1.*temporarily locked/);
    // The owner at another address still gets in, through either process.
    expect((await from(1, '10.0.0.2', 'owner', 'password-123')).statusCode).toBe(200);
});

it('an unknown username locks over two processes exactly like a real one', async () => {
    await burst('10.0.3.1', 'nobody-here', 5);
    expect((await from(0, '10.0.3.1', 'nobody-here', 'password-123')).statusCode).toBe(401);
    const audit = await web(0)
        .ctx.db.select()
        .from(auditEntries)
        .where(eq(auditEntries.ip, '10.0.3.1'))
        .orderBy(auditEntries.id);
    expect(audit.at(-1)?.message).toMatch(/"nobody-here" from 10\.0\.3\.1.*temporarily locked/);
});

it('an unlock from the console host lifts the lock on every process', async () => {
    const app = web(0);
    await seedUser(app, { username: 'proxied' });
    await burst('10.0.2.1', 'proxied', 5);
    expect((await from(1, '10.0.2.1', 'proxied', 'password-123')).statusCode).toBe(401);
    const { unlockUser } = await import('../../../server/services/account-recovery');
    await unlockUser(app.ctx.db, 'proxied');
    expect((await from(0, '10.0.2.1', 'proxied', 'password-123')).statusCode).toBe(200);
    expect((await from(1, '10.0.2.1', 'proxied', 'password-123')).statusCode).toBe(200);
});

describe('the per-address rate limit', () => {
    let limited: ClusterApps;
    beforeAll(async () => {
        // Its own apps: the limit is per minute, and the cases above make more attempts than it allows.
        await c.close();
        limited = await clusterApps(2, 12, { loginRateLimitPerMinute: 4 });
        c = limited;
    });

    it('counts the attempts of one address on every process together', async () => {
        const answers = [];
        for (const app of [0, 1, 0, 1, 0]) answers.push((await from(app, '10.0.4.1', 'x', 'wrong')).statusCode);
        expect(answers).toEqual([401, 401, 401, 401, 429]);
        expect((await from(1, '10.0.4.1', 'x', 'wrong')).statusCode).toBe(429);
    });
});
