import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { TestApp } from '../helpers';
import { auth, createTestApp, login, seedCompany, seedUser } from '../helpers';

/** Logout ends the sign-in, a revocation ends everything it covers at once. */
let t: TestApp;
let acme: number;
let root: string;
let base: string;
let origin: string;

beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    base = `ws://127.0.0.1:${port}/api/logs`;
    origin = `http://127.0.0.1:${port}`;
    acme = await seedCompany(t.app, 'Acme');
    root = (await login(t.app, 'admin', 'admin-password-1')).access;
});
afterAll(() => t.close());

const post = (url: string, headers: Record<string, string> = {}, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers, payload });
const me = async (token: string) => (await t.app.inject({ url: '/api/users/me', headers: auth(token) })).statusCode;
const refresh = async (token: string) => (await post('/api/refresh', auth(token))).statusCode;

describe('#4 POST /api/logout', () => {
    it('ends the refresh family and the access tokens issued from it, and only that sign-in', async () => {
        await seedUser(t.app, { username: 'leaver', companyId: acme });
        const session = await login(t.app, 'leaver');
        const other = await login(t.app, 'leaver');
        // Rotate once: the access token of the rotated pair belongs to the same sign-in.
        const rotated = (await post('/api/refresh', auth(session.refresh))).json();
        expect(await me(session.access)).toBe(200);
        const out = await post('/api/logout', auth(rotated.refreshToken.token));
        expect(out.statusCode).toBe(204);
        expect(await me(session.access)).toBe(401);
        expect(await me(rotated.accessToken.token)).toBe(401);
        expect(await refresh(rotated.refreshToken.token)).toBe(401);
        expect(await me(other.access)).toBe(200);
        expect(await refresh(other.refresh)).toBe(200);
    });

    it('takes only a refresh token', async () => {
        await seedUser(t.app, { username: 'leaver2', companyId: acme });
        const session = await login(t.app, 'leaver2');
        expect((await post('/api/logout')).statusCode).toBe(401);
        expect((await post('/api/logout', auth(session.access))).statusCode).toBe(401);
        expect((await post('/api/logout', auth('made-up'))).statusCode).toBe(401);
        expect(await me(session.access)).toBe(200);
    });
});

describe('#8 a revocation ends sessions at once', () => {
    it('refresh reuse ends the access tokens of the family, not 10 minutes later', async () => {
        await seedUser(t.app, { username: 'victim', companyId: acme });
        const first = await login(t.app, 'victim');
        const rotated = (await post('/api/refresh', auth(first.refresh))).json();
        expect(await me(rotated.accessToken.token)).toBe(200);
        // The stolen first refresh token is replayed from another address: the whole sign-in ends.
        const replay = await t.app.inject({
            method: 'POST',
            url: '/api/refresh',
            headers: auth(first.refresh),
            remoteAddress: '203.0.113.9',
        });
        expect(replay.statusCode).toBe(401);
        expect(await me(rotated.accessToken.token)).toBe(401);
        expect(await me(first.access)).toBe(401);
    });

    it('reactivating a company does not bring back tokens issued before its deactivation', async () => {
        const co = await seedCompany(t.app, 'Paused');
        await seedUser(t.app, { username: 'paused', companyId: co });
        const old = await login(t.app, 'paused');
        const put = (is_active: boolean) =>
            t.app.inject({
                method: 'PUT',
                url: `/api/companies/${co}`,
                headers: auth(root),
                payload: { name: 'Paused', is_active },
            });
        expect((await put(false)).statusCode).toBe(200);
        expect(await me(old.access)).toBe(401);
        expect((await put(true)).statusCode).toBe(200);
        expect(await me(old.access)).toBe(401);
        expect(await refresh(old.refresh)).toBe(401);
        expect(await me((await login(t.app, 'paused')).access)).toBe(200);
    });
});

async function ticket(token: string): Promise<string> {
    const res = await post('/api/logs/ticket', auth(token));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.json().ticket;
}

function socket(query: string) {
    const ws = new WebSocket(`${base}${query}`, { headers: { origin } });
    const opened = new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('unexpected-response', (_req, res) => reject(new Error(String(res.statusCode))));
        ws.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    const lines: string[] = [];
    ws.on('message', (data) => lines.push(data.toString()));
    return { ws, opened, closed, lines };
}

describe('#8/#9 the log socket', () => {
    it('takes no token in its URL, and a ticket only once', async () => {
        await expect(socket(`?token=${root}`).opened).rejects.toThrow('401');
        const once = await ticket(root);
        const first = socket(`?ticket=${once}`);
        await first.opened;
        await expect(socket(`?ticket=${once}`).opened).rejects.toThrow('401');
        first.ws.close();
    });

    it('closes at once when its super admin is demoted, not at the next revalidation', async () => {
        const id = await seedUser(t.app, { username: 'ops', isSuperAdmin: true, isAdmin: true });
        const s = socket(`?ticket=${await ticket((await login(t.app, 'ops')).access)}`);
        await s.opened;
        const demote = await t.app.inject({
            method: 'PUT',
            url: `/api/users/${id}`,
            headers: auth(root),
            payload: { username: 'ops', is_active: true, is_admin: true, is_super_admin: false, company_id: acme },
        });
        expect(demote.statusCode).toBe(200);
        expect(await s.closed).toBe(4001);
        // Closed before the demotion's own log line was written: not one more line reached the demoted user.
        await vi.waitFor(() => expect(t.logs.join('')).toContain(`PUT /api/users/${id}`));
        expect(s.lines.join('')).not.toContain(`PUT /api/users/${id}`);
    });

    it('closes at once when its sign-in logs out, and stays open for another sign-in of the same user', async () => {
        await seedUser(t.app, { username: 'ops2', isSuperAdmin: true, isAdmin: true });
        const mine = await login(t.app, 'ops2');
        const theirs = await login(t.app, 'ops2');
        const a = socket(`?ticket=${await ticket(mine.access)}`);
        const b = socket(`?ticket=${await ticket(theirs.access)}`);
        await Promise.all([a.opened, b.opened]);
        // Lines from before (the replay on connect) may name earlier logouts; only what follows counts.
        const before = a.lines.length;
        expect((await post('/api/logout', auth(mine.refresh))).statusCode).toBe(204);
        expect(await a.closed).toBe(4001);
        expect(a.lines.slice(before).join('')).not.toContain('POST /api/logout');
        expect(b.ws.readyState).toBe(WebSocket.OPEN);
        b.ws.close();
    });
});
