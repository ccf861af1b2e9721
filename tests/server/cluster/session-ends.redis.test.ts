import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { auth, login, seedCompany, seedUser } from '../helpers';
import { type ClusterApps, clusterApps } from './apps';

/**
 * A sign-in ended through one `web` process ends at once in every other: the log socket another process serves
 * closes then, not at its next periodic re-check of the session (30 s). Shares the login-locks file's Redis
 * database without emptying it: nothing here is kept there.
 */
let c: ClusterApps;
let base: string;
let origin: string;

const web = (i: number) => c.web(i);

beforeAll(async () => {
    c = await clusterApps(2, 12, {}, true);
    await web(1).listen({ port: 0, host: '127.0.0.1' });
    const port = (web(1).server.address() as AddressInfo).port;
    base = `ws://127.0.0.1:${port}/api/logs`;
    origin = `http://127.0.0.1:${port}`;
    await seedUser(web(0), { username: 'tail-watcher', isSuperAdmin: true, isAdmin: true });
});
afterAll(() => c?.close());

async function socketOn1(access: string) {
    const res = await web(1).inject({ method: 'POST', url: '/api/logs/ticket', headers: auth(access) });
    expect(res.statusCode).toBe(200);
    const ws = new WebSocket(`${base}?ticket=${res.json().ticket}`, { headers: { origin } });
    await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    return { ws, closed };
}

/** The close code within `ms`, or 'open'. */
const within = (closed: Promise<number>, ms: number) =>
    Promise.race([closed, new Promise<'open'>((r) => setTimeout(() => r('open'), ms))]);

it('a sign-out through one process closes that sign-in’s log socket on another at once, and only that one', async () => {
    const mine = await login(web(0), 'tail-watcher');
    const theirs = await login(web(0), 'tail-watcher');
    const a = await socketOn1(mine.access);
    const b = await socketOn1(theirs.access);
    const out = await web(0).inject({ method: 'POST', url: '/api/logout', headers: auth(mine.refresh) });
    expect(out.statusCode).toBe(204);
    expect(await within(a.closed, 5000)).toBe(4001);
    expect(b.ws.readyState).toBe(WebSocket.OPEN);
    b.ws.close();
});

it('a user demoted through one process loses the log socket another serves at once', async () => {
    const company = await seedCompany(web(0), 'Tails');
    const id = await seedUser(web(0), { username: 'tail-demoted', isSuperAdmin: true, isAdmin: true });
    const root = await login(web(0), 'admin', 'admin-password-1');
    const s = await socketOn1((await login(web(0), 'tail-demoted')).access);
    const demote = await web(0).inject({
        method: 'PUT',
        url: `/api/users/${id}`,
        headers: auth(root.access),
        payload: {
            username: 'tail-demoted',
            is_active: true,
            is_admin: true,
            is_super_admin: false,
            company_id: company,
        },
    });
    expect(demote.json()).toMatchObject({ is_super_admin: false });
    expect(await within(s.closed, 5000)).toBe(4001);
});
