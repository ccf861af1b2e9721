import { DrizzleQueryError } from 'drizzle-orm/errors';
import type { TestApp } from '../helpers';
import { auth, createTestApp, login, seedCompany } from '../helpers';

/** No input from any user produces a 500, and no log line carries bound SQL parameters. */
let t: TestApp;
let root: string;
let acme: number;
let configurationId: number;

beforeAll(async () => {
    t = await createTestApp({ answerCacheMs: 0 });
    acme = await seedCompany(t.app, 'Acme');
    root = (await login(t.app, 'admin', 'admin-password-1')).access;
    const c = await t.app.inject({
        method: 'POST',
        url: '/api/configurations',
        headers: auth(root),
        payload: { name: 'Hub', chain: 'cosmoshub', is_enabled: true, company_id: acme },
    });
    expect(c.statusCode).toBe(201);
    configurationId = c.json().id;
});
afterAll(() => t.close());

const LISTS = [
    '/api/companies',
    '/api/users',
    '/api/configurations',
    '/api/servers',
    '/api/notification-channels',
    '/api/audit/latest',
];
const get = (url: string, query: Record<string, string>) =>
    t.app.inject({ url: `${url}?${new URLSearchParams(query)}`, headers: auth(root) });
const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: auth(root), payload });

describe('list parameters', () => {
    it.each(LISTS)('%s answers sort on a prototype key with 400 naming sort', async (url) => {
        for (const field of ['__proto__', 'constructor', 'prototype']) {
            const res = await get(url, { sort: JSON.stringify([field, 'ASC']), range: '[0,9]' });
            expect(res.statusCode, `${url} ${field}`).toBe(400);
            expect(res.json().errors).toHaveProperty('sort');
        }
    });

    it.each(LISTS)('%s never answers odd sort, range or filter JSON with a 500', async (url) => {
        const odd: Record<string, string>[] = [
            { sort: '["toString","DESC"]' },
            { sort: '["hasOwnProperty","ASC"]' },
            { sort: '["__defineGetter__","ASC"]' },
            { sort: '[1,"ASC"]' },
            { sort: '{"0":"name"}' },
            { sort: '["name","ASC","extra"]' },
            { range: '[5,2]' },
            { range: '[-1,3]' },
            { range: '[0,1e308]' },
            { range: '["a",1]' },
            { range: '{}' },
            { filter: '[]' },
            { filter: '"x"' },
            { filter: 'null' },
            { filter: '{"__proto__":{"q":"x"}}' },
            { filter: '{"constructor":{"prototype":{"polluted":1}}}' },
            { filter: '{"q":{"toLowerCase":1}}' },
            { filter: '{"q":"\\u0000"}' },
            { filter: '{"company_id":"__proto__","configuration_id":{"a":1},"monitor_id":[1]}' },
        ];
        for (const query of odd) {
            const res = await get(url, query);
            expect(res.statusCode, `${url} ${JSON.stringify(query)} ${res.body}`).toBeLessThan(500);
            if (res.statusCode === 400) expect(Object.keys(res.json().errors ?? {}).length).toBeGreaterThan(0);
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
});

describe('NUL bytes (PostgreSQL refuses them in text)', () => {
    it.each([
        ['/api/companies', { name: 'Ac\u0000me', is_active: true }, 'name'],
        ['/api/configurations', { name: 'N\u0000', chain: 'cosmoshub', is_enabled: true }, 'name'],
        ['/api/configurations', { name: 'ok', chain: 'cosmos\u0000hub', is_enabled: true }, 'chain'],
        ['/api/users', { username: 'u\u0000', raw_password: 'password-123', is_active: true }, 'username'],
        ['/api/users', { username: 'nul-pw', raw_password: 'pass\u0000word-123', is_active: true }, 'raw_password'],
        [
            '/api/notification-channels',
            {
                name: 'tg',
                type: 'telegram',
                is_enabled: true,
                configuration_object: { bot_token: '1:a\u0000', chat_id: '1' },
            },
            'configuration_object',
        ],
    ])('%s refuses a NUL in %j with 400 naming the field', async (url, body, field) => {
        const res = await post(url, url === '/api/companies' ? body : { company_id: acme, ...body });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toHaveProperty(field);
        expect(res.json().errors[field]).toMatch(/NUL/);
    });

    it('refuses a NUL in a key too', async () => {
        const res = await post('/api/companies', { 'name\u0000': 'x', name: 'Acme 2' });
        expect(res.statusCode).toBe(400);
    });
});

describe('deeply nested configuration_object', () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    /** `{"a":{"a":…}}` n levels deep, as JSON text (built without recursion). */
    const deepObject = (n: number) => `${'{"a":'.repeat(n)}{}${'}'.repeat(n)}`;

    it.each([
        // [what, route, configuration_object as it goes in the JSON body]
        ['a monitor, as text', '/api/monitors', () => JSON.stringify(`{"a":${deep(5000)}}`)],
        ['a monitor, as an object', '/api/monitors', () => deepObject(5000)],
        ['a channel, as text', '/api/notification-channels', () => JSON.stringify(`{"chat_id":"1","x":${deep(5000)}}`)],
        ['a channel, as an object', '/api/notification-channels', () => `{"chat_id":"1","x":${deepObject(5000)}}`],
    ])('answers 400 for %s', async (_what, url, value) => {
        const body =
            url === '/api/monitors'
                ? { name: 'deep', type: 'urlCheck', is_enabled: false, configuration_id: configurationId }
                : { name: 'deep', type: 'telegram', is_enabled: false, company_id: acme };
        // Sent as text: the test's own JSON.stringify must not be what overflows.
        const text = JSON.stringify(body).replace(/}$/, `,"configuration_object":${value()}}`);
        const res = await t.app.inject({
            method: 'POST',
            url,
            headers: { ...auth(root), 'content-type': 'application/json' },
            payload: text,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toHaveProperty('configuration_object');
    });

    it('still takes an ordinary configuration_object', async () => {
        const res = await post('/api/monitors', {
            name: 'shallow',
            type: 'urlCheck',
            is_enabled: false,
            configuration_id: configurationId,
            configuration_object: JSON.stringify({ address: 'http://127.0.0.1:9/' }),
        });
        expect(res.statusCode, res.body).toBe(201);
    });
});

describe('logs of a failed query', () => {
    it('keep the query and its cause but never the bound parameters', async () => {
        const secret = 'v1:ciphertext-of-a-bot-token-4f1c';
        const cause = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
        const failure = new DrizzleQueryError('insert into "companies" ("name") values ($1, $2)', ['x', secret], cause);
        const spy = vi.spyOn(t.app.ctx.db, 'select').mockImplementation(() => {
            throw failure;
        });
        try {
            const res = await t.app.inject({ url: '/api/configurations', headers: auth(root) });
            expect(res.statusCode).toBe(500);
        } finally {
            spy.mockRestore();
        }
        // Anything else that logs the error, as an object or inside a sentence.
        t.app.log.warn({ err: failure }, 'engine write failed');
        t.app.log.error(`engine write failed: ${failure.message}`);
        const logged = t.logs.join('\n') + JSON.stringify(t.app.ctx.logHub.recent());
        expect(logged).toContain('insert into');
        expect(logged).toContain('invalid byte sequence');
        expect(logged).not.toContain(secret);
        expect(logged).not.toContain('ciphertext-of-a-bot-token');
    });
});
