import { randomBytes } from 'node:crypto';
import { OwnRedis } from '../../cluster/own-redis';
import { auth, login, startAppOn, type TestApp, throwAwayPostgres } from '../helpers';
import { waitFor } from '../seed';

/**
 * A `web` process whose Redis has died answers every request at once, and says so where Redis is needed: nothing
 * waits until Redis is back (ioredis's own retries let a request wait longer at each reconnection, 20 s after a
 * minute). A Redis of the test's own, since it is killed.
 */
let redis: OwnRedis;
let t: TestApp;
let db: Awaited<ReturnType<typeof throwAwayPostgres>>;

beforeAll(async () => {
    redis = await OwnRedis.start();
    db = await throwAwayPostgres(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
    const appSecret = randomBytes(32).toString('hex');
    t = await startAppOn({ databaseUrl: db.url, appSecret, redisUrl: redis.url, role: 'web', engineEnabled: false });
});
afterAll(async () => {
    await t?.close();
    await db?.drop();
    await redis?.close();
});

const signIn = () =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: 'admin-password-1' } });

it('with Redis down, sign-in and health say so, and what needs only PostgreSQL still answers', async () => {
    const { access } = await login(t.app, 'admin', 'admin-password-1');
    await redis.crash();
    // Twice: the second comes after ioredis has backed off between reconnections.
    for (let round = 0; round < 2; round++) {
        const started = performance.now();
        const refused = await signIn();
        expect(refused.statusCode).toBe(503);
        expect(refused.json().message).toBe('Redis is not answering, try again in a moment');
        const health = await t.app.inject({ url: '/api/health' });
        expect(health.statusCode).toBe(503);
        expect(health.json().message).toBe('Redis is not answering');
        expect((await t.app.inject({ url: '/api/monitors', headers: auth(access) })).statusCode).toBe(200);
        expect((await t.app.inject({ url: '/api/public/status/nothing' })).statusCode).toBe(404);
        // Each of the four waited at most one command's time limit, not for Redis.
        expect(performance.now() - started).toBeLessThan(12_000);
        await new Promise((r) => setTimeout(r, 3000));
    }
    await redis.up();
    await waitFor('sign-in after Redis is back', async () => (await signIn()).statusCode === 200);
}, 60_000);
