import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import type { TestApp } from '../helpers';
import { type Route, registeredRoutes } from '../route-table';
import { auth, createTestApp, login, seedCompany, seedUser } from '../helpers';

// Fastify routes may use methods that light-my-request's narrower method type does not list.
type InjectMethod = InjectOptions['method'];

/**
 * Security checklist items 19, 21, 38, 40 and the 5xx rule of architecture §3: every registered route, called
 * without a token, with odd path parameters or over a failing database, answers briefly and with the headers.
 */
const PUBLIC = new Set([
    '/api/login',
    '/api/refresh',
    '/api/logout',
    '/api/health',
    '/config.js',
    '/favicon.ico',
    '/api/logs',
    '/api/openapi.json',
]);
/** The API reference page and its static files (documentation, no data), and what status pages show visitors. */
const isPublic = (url: string) => PUBLIC.has(url) || url.startsWith('/api/docs') || url.startsWith('/api/public/');
const HEADERS = ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'strict-transport-security'];

let t: TestApp;
let routes: Route[];
let root: string;
let plain: string;
let uiDir: string;

beforeAll(async () => {
    uiDir = mkdtempSync(join(tmpdir(), 'nm-ui-'));
    writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>ui</title>');
    writeFileSync(join(uiDir, 'app.js'), 'console.log(1)');
    t = await createTestApp({ uiDir });
    routes = registeredRoutes(t.app);
    const acme = await seedCompany(t.app, 'Acme');
    await seedUser(t.app, { username: 'root', isSuperAdmin: true, isAdmin: true });
    await seedUser(t.app, { username: 'bob', companyId: acme });
    root = (await login(t.app, 'root')).access;
    plain = (await login(t.app, 'bob')).access;
});
afterAll(async () => {
    await t.close();
    rmSync(uiDir, { recursive: true, force: true });
});

const concrete = (url: string, id = '1') => url.replace(/:[A-Za-z]+/g, id);

describe('#19 unauthenticated route inventory', () => {
    it('finds the API routes', () => {
        expect(routes.length).toBeGreaterThan(40);
        expect(routes).toContainEqual({
            method: 'DELETE',
            url: '/api/configurations/:id/notification-channels/:linkId',
        });
        expect(routes).toContainEqual({ method: 'GET', url: '/api/services/:id/test' });
    });

    it('answers 401 without a token, or with a bad one, on every route but the public ones', async () => {
        const open: string[] = [];
        for (const r of routes) {
            if (isPublic(r.url) || !r.url.startsWith('/api/')) continue;
            for (const headers of [{}, auth('not-a-token'), { authorization: 'Basic cm9vdDpyb290' }]) {
                const res = await t.app.inject({
                    method: r.method as InjectMethod,
                    url: concrete(r.url),
                    headers,
                    payload: {},
                });
                if (res.statusCode !== 401) open.push(`${r.method} ${r.url} → ${res.statusCode}`);
                else if (r.method !== 'HEAD') expect(res.json()).toEqual({ message: 'Authentication required' });
            }
        }
        expect(open).toEqual([]);
    });

    it('answers 401 on percent-encoded spellings of protected paths (the router decodes them)', async () => {
        for (const url of [
            '/%61pi/chains',
            '/%61pi/users/me',
            '/%61pi/configurations',
            '/api/%75sers',
            '/%2561pi/chains',
            '/%61%70%69/audit/latest',
        ]) {
            const res = await t.app.inject({ url });
            // Anything the router does not take for an API route falls through to the single-page app's index.html.
            if (res.statusCode === 200) expect(res.headers['content-type'], url).toMatch(/^text\/html/);
            else expect([401, 404], url).toContain(res.statusCode);
            expect(res.body, url).not.toMatch(/cosmoshub|"username"|results/);
        }
    });

    it('leaves only the public routes open, and they return nothing private', async () => {
        expect((await t.app.inject({ url: '/api/health' })).json()).toEqual({ status: 'ok' });
        const config = await t.app.inject({ url: '/config.js' });
        expect(config.statusCode).toBe(200);
        expect(config.body).not.toMatch(/secret|token|password/i);
        expect((await t.app.inject({ method: 'POST', url: '/api/refresh' })).statusCode).toBe(401);
        expect((await t.app.inject({ method: 'POST', url: '/api/logout' })).statusCode).toBe(401);
        expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: {} })).statusCode).toBe(400);
        // The log socket wants a same-origin handshake and a super admin's single-use ticket.
        expect((await t.app.inject({ url: '/api/logs' })).statusCode).toBe(403);
        const sameOrigin = { origin: 'http://localhost:8080', host: 'localhost:8080' };
        expect((await t.app.inject({ url: '/api/logs', headers: sameOrigin })).statusCode).toBe(401);
    });

    it('answers unknown API paths 401 without a token and 404 with one, in JSON', async () => {
        expect((await t.app.inject({ url: '/api/nothing-here' })).statusCode).toBe(401);
        const res = await t.app.inject({ url: '/api/nothing-here', headers: auth(root) });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: 'Not found' });
    });

    it('refuses read-only users every write and super-admin routes', async () => {
        const allowed: string[] = [];
        for (const r of routes) {
            if (isPublic(r.url) || !r.url.startsWith('/api/')) continue;
            // A user's own API tokens are theirs to manage, whatever their role (they act as the user, no further).
            if (r.url.startsWith('/api/tokens')) continue;
            const adminOnly = /^\/api\/(users|companies)(\/:id)?$/.test(r.url);
            if (r.method === 'GET' || r.method === 'HEAD') {
                if (!adminOnly) continue;
            }
            const res = await t.app.inject({
                method: r.method as InjectMethod,
                url: concrete(r.url),
                headers: auth(plain),
                payload: {},
            });
            if (res.statusCode !== 403) allowed.push(`${r.method} ${r.url} → ${res.statusCode}`);
        }
        expect(allowed).toEqual([]);
    });
});

describe('#21 odd path parameters', () => {
    const ODD = [
        ':id',
        '%3Aid',
        '..%2f',
        '..%2f..%2fapi%2fusers',
        '9'.repeat(10_000),
        'abc',
        '-1',
        '0',
        '1.5',
        '0x10',
        '1e3',
        '%201',
        '99999999999',
        '2147483648',
        '%00',
        '%',
        '%ZZ',
        '1;select%201',
        "1'%20or%20'1'='1",
        '%F0%9F%92%A9',
    ];

    it('answers 400 or 404 on every :id route, never 500, never data', async () => {
        const paramRoutes = routes.filter((r) => r.url.includes('/:') && r.method !== 'HEAD');
        expect(paramRoutes.length).toBeGreaterThan(15);
        const bad: string[] = [];
        for (const r of paramRoutes) {
            for (const odd of ODD) {
                const res = await t.app.inject({
                    method: r.method as InjectMethod,
                    url: concrete(r.url, odd),
                    headers: auth(root),
                    ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: {} }),
                });
                const body = res.body;
                if (![400, 404].includes(res.statusCode) || /stack|at .*\.ts|select |FST_ERR/i.test(body)) {
                    bad.push(`${r.method} ${r.url} [${odd.slice(0, 20)}] → ${res.statusCode} ${body.slice(0, 80)}`);
                }
                if (!HEADERS.every((h) => res.headers[h])) bad.push(`${r.method} ${r.url} [${odd}] lacks headers`);
                expect(body.length).toBeLessThan(400);
            }
        }
        expect(bad).toEqual([]);
    });

    it('names the parameter in a {message, errors} body', async () => {
        const res = await t.app.inject({ url: '/api/configurations/abc', headers: auth(root) });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: 'id: id must be a number', errors: { id: 'id must be a number' } });
        const link = await t.app.inject({
            method: 'DELETE',
            url: '/api/configurations/1/notification-channels/x',
            headers: auth(root),
        });
        expect(link.json().errors).toHaveProperty('linkId');
    });
});

describe('#38 headers on every answer', () => {
    it.each([
        ['GET', '/api/health', undefined, 200],
        ['GET', '/api/users/me', undefined, 401],
        ['GET', '/api/users', 'plain', 403],
        ['GET', '/api/configurations/999', 'root', 404],
        ['GET', '/api/configurations/abc', 'root', 400],
        ['GET', '/api/%', undefined, 400],
        ['GET', `/api/servers/${'1'.repeat(5000)}`, 'root', 404],
        ['GET', '/config.js', undefined, 200],
        ['GET', '/app.js', undefined, 200],
        ['GET', '/missing.png', undefined, 404],
        ['GET', '/configurations/5', undefined, 200],
        ['POST', '/api/login', undefined, 400],
    ] as const)('%s %s', async (method, url, who, status) => {
        const token = who === 'root' ? root : who === 'plain' ? plain : undefined;
        const res = await t.app.inject({ method, url, headers: token ? auth(token) : {} });
        expect(res.statusCode).toBe(status);
        expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['referrer-policy']).toBeTruthy();
        expect(String(res.headers['strict-transport-security'])).toMatch(/max-age=(\d{8,})/);
        expect(
            Number(/max-age=(\d+)/.exec(String(res.headers['strict-transport-security']))?.[1])
        ).toBeGreaterThanOrEqual(31_536_000);
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('sends no CORS grant to a foreign origin', async () => {
        const res = await t.app.inject({
            method: 'OPTIONS',
            url: '/api/configurations',
            headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
        });
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });
});

describe('5xx answers', () => {
    it('say nothing about a database failure but log it', async () => {
        const db = t.app.ctx.db;
        const spy = vi.spyOn(db, 'select').mockImplementation(() => {
            throw Object.assign(new Error('relation "secret_table" does not exist in select * from users'), {
                code: '42P01',
            });
        });
        try {
            const res = await t.app.inject({ url: '/api/configurations', headers: auth(root) });
            expect(res.statusCode).toBe(500);
            expect(res.json()).toEqual({ message: 'Internal server error' });
            expect(res.headers['content-security-policy']).toBeTruthy();
        } finally {
            spy.mockRestore();
        }
        expect(t.logs.join('\n')).toContain('secret_table');
    });

    it('answer a malformed JSON body as a 400 about the body', async () => {
        const res = await t.app.inject({
            method: 'POST',
            url: '/api/configurations',
            headers: { ...auth(root), 'content-type': 'application/json' },
            payload: '{"name":',
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ message: expect.any(String), errors: { body: expect.any(String) } });
        expect(res.body).not.toMatch(/stack|FST_ERR/);
    });

    it('answer an invalid audit filter as a 400, not a 500', async () => {
        const res = await t.app.inject({
            url: `/api/audit/latest?filter=${encodeURIComponent('{"monitor_id":"abc"}')}`,
            headers: auth(root),
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toHaveProperty('monitor_id');
    });
});

describe('#40 unauthenticated flood', () => {
    it('answers random API ids cheaply with 401 and the site with 404s that grow nothing', async () => {
        for (let i = 0; i < 200; i++) {
            const id = Math.floor(Math.random() * 1e9);
            expect((await t.app.inject({ url: `/api/monitors/${id}` })).statusCode).toBe(401);
            expect((await t.app.inject({ url: `/badge/${id}.svg` })).statusCode).toBe(404);
        }
    });
});
