import { eq } from 'drizzle-orm';
import { apiTokens } from '../../server/db/schema';
import { createWorld, type World } from './config-fixtures';
import { auth } from './helpers';

let w: World;
beforeAll(async () => {
    w = await createWorld();
});
afterAll(() => w?.t.close());

const makeToken = async (session: string, body: object) => {
    const res = await w.call('POST', '/api/tokens', session, body);
    expect(res.statusCode).toBe(201);
    return res.json() as { id: number; name: string; scope: string; expires_at: string | null; token: string };
};
const withToken = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    w.t.app.inject({ method, url, headers: auth(token), ...(payload ? { payload } : {}) });

describe('API tokens', () => {
    it('shows the secret once, stores only its hash and lists tokens without it', async () => {
        const made = await makeToken(w.admin.access, { name: 'ci export', scope: 'read' });
        expect(made).toMatchObject({ name: 'ci export', scope: 'read', expires_at: null });
        expect(made.token).toMatch(/^nmt_[A-Za-z0-9_-]{43}$/);
        const list = await w.call('GET', '/api/tokens', w.admin.access);
        expect(list.statusCode).toBe(200);
        expect(list.body).not.toContain(made.token);
        expect(list.json()).toEqual([expect.objectContaining({ id: made.id, name: 'ci export', last_used_at: null })]);
        const [row] = await w.t.app.ctx.db.select().from(apiTokens).where(eq(apiTokens.id, made.id));
        expect(row?.tokenHash).not.toContain(made.token.slice(4));
        // Another user sees none of them and cannot delete them.
        expect((await w.call('GET', '/api/tokens', w.other.access)).json()).toEqual([]);
        expect((await w.call('DELETE', `/api/tokens/${made.id}`, w.other.access)).statusCode).toBe(404);
    });

    it('acts as its user: a read token reads and may not write, a write token writes within the user', async () => {
        const read = await makeToken(w.admin.access, { name: 'read', scope: 'read' });
        expect((await withToken(read.token, 'GET', '/api/configurations')).statusCode).toBe(200);
        const refused = await withToken(read.token, 'POST', '/api/configurations', { name: 'x', chain: 'osmosis' });
        expect(refused.statusCode).toBe(403);
        expect(refused.json().message).toBe('This API token is read-only');
        const [row] = await w.t.app.ctx.db.select().from(apiTokens).where(eq(apiTokens.id, read.id));
        expect(row?.lastUsedAt).not.toBeNull();

        const write = await makeToken(w.admin.access, { name: 'write', scope: 'write' });
        const made = await withToken(write.token, 'POST', '/api/configurations', {
            name: 'By token',
            chain: 'osmosis',
        });
        expect(made.statusCode).toBe(201);
        // A plain user's write token is no more than the plain user.
        const plain = await makeToken(w.plain.access, { name: 'mine', scope: 'write' });
        expect(
            (await withToken(plain.token, 'POST', '/api/configurations', { name: 'y', chain: 'x' })).statusCode
        ).toBe(403);
        // A token cannot mint tokens.
        expect((await withToken(write.token, 'POST', '/api/tokens', { name: 'more', scope: 'write' })).statusCode).toBe(
            403
        );
    });

    it('ends when it expires, is deleted, or its user changes password or is disabled', async () => {
        const soon = await makeToken(w.admin.access, {
            name: 'soon',
            scope: 'read',
            expires_at: new Date(Date.now() + 3600_000).toISOString(),
        });
        expect((await withToken(soon.token, 'GET', '/api/configurations')).statusCode).toBe(200);
        await w.t.app.ctx.db
            .update(apiTokens)
            .set({ expiresAt: new Date(Date.now() - 1000) })
            .where(eq(apiTokens.id, soon.id));
        expect((await withToken(soon.token, 'GET', '/api/configurations')).statusCode).toBe(401);

        const gone = await makeToken(w.admin.access, { name: 'gone', scope: 'read' });
        expect((await w.call('DELETE', `/api/tokens/${gone.id}`, w.admin.access)).statusCode).toBe(200);
        expect((await withToken(gone.token, 'GET', '/api/configurations')).statusCode).toBe(401);

        const other = await makeToken(w.other.access, { name: 'gus', scope: 'read' });
        expect((await withToken(other.token, 'GET', '/api/configurations')).statusCode).toBe(200);
        const gus = (await w.call('GET', '/api/users', w.root.access))
            .json()
            .results.find((u: { username: string }) => u.username === 'gus');
        const changed = await w.call('PUT', `/api/users/${gus.id}`, w.root.access, {
            ...gus,
            raw_password: 'a-new-password-123',
        });
        expect(changed.statusCode).toBe(200);
        expect((await withToken(other.token, 'GET', '/api/configurations')).statusCode).toBe(401);

        const bob = await makeToken(w.plain.access, { name: 'bob', scope: 'read' });
        const plain = (await w.call('GET', '/api/users', w.root.access))
            .json()
            .results.find((u: { username: string }) => u.username === 'bob');
        await w.call('PUT', `/api/users/${plain.id}`, w.root.access, { ...plain, is_active: false });
        expect((await withToken(bob.token, 'GET', '/api/configurations')).statusCode).toBe(401);
    });

    it('names the wrong field of a bad request', async () => {
        const scope = await w.call('POST', '/api/tokens', w.admin.access, { name: 'x', scope: 'admin' });
        expect(scope.statusCode).toBe(400);
        expect(scope.json().errors).toHaveProperty('scope');
        const past = await w.call('POST', '/api/tokens', w.admin.access, {
            name: 'x',
            scope: 'read',
            expires_at: '2020-01-01T00:00:00Z',
        });
        expect(past.statusCode).toBe(400);
        expect(past.json().errors).toHaveProperty('expires_at');
    });
});
