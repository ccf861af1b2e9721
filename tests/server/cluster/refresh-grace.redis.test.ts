import { login, seedUser } from '../helpers';
import { type ClusterApps, clusterApps } from './apps';

/**
 * Refresh-token rotation in the cluster profile: one browser's two tabs may refresh the same token through two
 * `web` processes, one after the other or at once, and both get the pair the first rotation issued; the token from
 * another address is still a replay that ends the sign-in. Shares the login-locks file's Redis database without
 * emptying it: its keys are per token.
 */
let c: ClusterApps;

const web = (i: number) => c.web(i);

beforeAll(async () => {
    c = await clusterApps(2, 12, {}, true);
    await seedUser(web(0), { username: 'tabs' });
});
afterAll(() => c?.close());

const refresh = (i: number, token: string, address = '10.0.5.1') =>
    web(i).inject({
        method: 'POST',
        url: '/api/refresh',
        headers: { authorization: `Bearer ${token}` },
        remoteAddress: address,
    });

it('a token rotated through one process gets the same pair through another, from the same address', async () => {
    const { refresh: token } = await login(web(0), 'tabs');
    const first = await refresh(0, token);
    expect(first.statusCode).toBe(200);
    const second = await refresh(1, token);
    expect(second.statusCode).toBe(200);
    expect(second.json().refreshToken.token).toBe(first.json().refreshToken.token);
    // The pair goes on working on either.
    expect((await refresh(1, first.json().refreshToken.token)).statusCode).toBe(200);
});

it('two refreshes of one token at once through two processes both get the same pair', async () => {
    const { refresh: token } = await login(web(0), 'tabs');
    const [a, b] = await Promise.all([refresh(0, token), refresh(1, token)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().refreshToken.token).toBe(b.json().refreshToken.token);
});

it('the rotated token from another address through another process ends the sign-in', async () => {
    const { refresh: token } = await login(web(0), 'tabs');
    const first = await refresh(0, token);
    expect((await refresh(1, token, '10.0.6.6')).statusCode).toBe(401);
    expect((await refresh(0, first.json().refreshToken.token)).statusCode).toBe(401);
});
