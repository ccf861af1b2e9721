import { eq } from 'drizzle-orm';
import { checkResults, incidents, monitors } from '../../server/db/schema';
import { createWorld, type World } from './config-fixtures';

/** Status pages: the admin API, what a visitor reads without signing in, and that nothing internal leaks. */
let w: World;
let cfg: number;
let node: number;
let signing: number;
let theirs: number;
const INCIDENT = '55555555-0000-4000-8000-000000000001';

const page = (body: object = {}) => ({
    slug: 'acme-validators',
    title: 'Acme validators',
    description: 'Our Cosmos Hub validator',
    monitor_ids: [node, signing],
    display_names: { [String(signing)]: 'Block signing' },
    ...body,
});
const visit = (url: string) => w.t.app.inject({ url });

beforeAll(async () => {
    w = await createWorld();
    cfg = await w.configuration(w.admin.access);
    const srv = await w.server(w.admin.access, cfg, { name: 'validator-1', address: 'http://10.0.0.5' });
    const monitor = async (token: string, body: object) => {
        const res = await w.call('POST', '/api/monitors', token, { configuration_object: '{}', ...body });
        if (res.statusCode !== 201) throw new Error(res.body);
        return res.json().id as number;
    };
    node = await monitor(w.admin.access, {
        name: 'validator-1 blocks',
        configuration_id: cfg,
        server_id: srv,
        type: 'blockCheck',
    });
    signing = await monitor(w.admin.access, {
        name: 'sign misses',
        configuration_id: cfg,
        server_id: srv,
        type: 'blockCheck',
    });
    const globexCfg = await w.configuration(w.other.access, { name: 'Theirs' });
    const globexSrv = await w.server(w.other.access, globexCfg);
    theirs = await monitor(w.other.access, {
        name: 'theirs',
        configuration_id: globexCfg,
        server_id: globexSrv,
        type: 'blockCheck',
    });
});
afterAll(() => w?.t.close());

describe('status pages API', () => {
    it('creates, reads, updates and deletes a page of the company', async () => {
        const created = await w.call('POST', '/api/status-pages', w.admin.access, page());
        expect(created.statusCode).toBe(201);
        const body = created.json();
        expect(body).toMatchObject({
            company_id: w.acme,
            slug: 'acme-validators',
            is_public: true,
            access_key: null,
            monitor_ids: [node, signing],
            display_names: { [String(signing)]: 'Block signing' },
            url: '/status/acme-validators',
        });
        const list = await w.call('GET', '/api/status-pages', w.plain.access);
        expect(list.json().results.map((p: { id: number }) => p.id)).toEqual([body.id]);
        expect((await w.call('GET', '/api/status-pages', w.other.access)).json().results).toEqual([]);
        expect((await w.call('GET', `/api/status-pages/${body.id}`, w.other.access)).statusCode).toBe(404);
        const updated = await w.call('PUT', `/api/status-pages/${body.id}`, w.admin.access, {
            ...body,
            title: 'Acme status',
            monitor_ids: [signing, node],
        });
        expect(updated.statusCode).toBe(200);
        expect(updated.json()).toMatchObject({ title: 'Acme status', monitor_ids: [signing, node] });
        expect((await w.call('DELETE', `/api/status-pages/${body.id}`, w.other.access)).statusCode).toBe(404);
        expect((await w.call('DELETE', `/api/status-pages/${body.id}`, w.admin.access)).statusCode).toBe(200);
        expect((await visit('/api/public/status/acme-validators')).statusCode).toBe(404);
        expect((await w.audit()).map((a) => a.message)).toEqual(
            expect.arrayContaining([
                'Status page "Acme validators" created by alice',
                'Status page "Acme status" deleted by alice',
            ])
        );
    });

    it('refuses what it must, naming the field', async () => {
        const bad = async (body: object, field: string, token = w.admin.access) => {
            const res = await w.call('POST', '/api/status-pages', token, page(body));
            expect(res.statusCode, JSON.stringify(body)).toBe(400);
            expect(Object.keys(res.json().errors ?? {}), res.body).toContain(field);
        };
        await bad({ monitor_ids: [theirs] }, 'monitor_ids');
        await bad({ monitor_ids: [node, node] }, 'monitor_ids');
        await bad({ slug: 'AB' }, 'slug');
        await bad({ slug: 'has space' }, 'slug');
        await bad({ slug: 'x'.repeat(41) }, 'slug');
        await bad({ title: '' }, 'title');
        await bad({ title: 'a\u0000b' }, 'title');
        await bad({ access_key: 'short' }, 'access_key');
        // A super admin may name any company, and then only that company's monitors.
        await bad({ company_id: w.globex }, 'monitor_ids', w.root.access);
        const first = await w.call('POST', '/api/status-pages', w.admin.access, page({ slug: 'taken-slug' }));
        expect(first.statusCode).toBe(201);
        const taken = await w.call(
            'POST',
            '/api/status-pages',
            w.other.access,
            page({ slug: 'taken-slug', monitor_ids: [] })
        );
        expect(taken.statusCode).toBe(400);
        expect(taken.json().errors).toHaveProperty('slug');
        expect(
            (await w.call('POST', '/api/status-pages', w.plain.access, page({ slug: 'plain-user' }))).statusCode
        ).toBe(403);
        const root = await w.call(
            'POST',
            '/api/status-pages',
            w.root.access,
            page({ slug: 'by-root', company_id: w.globex, monitor_ids: [theirs] })
        );
        expect(root.statusCode).toBe(201);
        expect(root.json().company_id).toBe(w.globex);
    });
});

describe('what a visitor sees', () => {
    it('names only, the worst state, 90 days of uptime and the incident with its public updates', async () => {
        const created = await w.call('POST', '/api/status-pages', w.admin.access, page({ slug: 'public-one' }));
        expect(created.statusCode).toBe(201);
        const db = w.t.app.ctx.db;
        await db
            .update(monitors)
            .set({ status: false, lastError: 'dial tcp 10.0.0.5:26657: connection refused' })
            .where(eq(monitors.id, node));
        await db
            .update(monitors)
            .set({ lastError: 'missed 12 of 100 at rpc http://10.0.0.5:26657' })
            .where(eq(monitors.id, signing));
        const now = Date.now();
        await db.insert(checkResults).values([
            { monitorId: node, t: new Date(now - 120_000), level: 0 },
            { monitorId: node, t: new Date(now - 60_000), level: 2, message: 'connection refused' },
        ]);
        await db.insert(incidents).values({
            id: INCIDENT,
            companyId: w.acme,
            kind: 'monitor',
            configurationId: cfg,
            configurationName: 'Main',
            monitorId: node,
            monitorName: 'validator-1 blocks',
            serverId: 1,
            serverName: 'validator-1',
            message: 'dial tcp 10.0.0.5:26657: connection refused',
            payload: '{}',
            openedAt: new Date(now - 60_000),
        });
        const update = await w.call('POST', `/api/incidents/${INCIDENT}/updates`, w.admin.access, {
            status: 'identified',
            text: 'The validator node is restarting after an upgrade.',
        });
        expect(update.statusCode).toBe(201);
        expect(
            (
                await w.call('POST', `/api/incidents/${INCIDENT}/updates`, w.other.access, {
                    status: 'identified',
                    text: 'x',
                })
            ).statusCode
        ).toBe(404);
        expect(
            (
                await w.call('POST', `/api/incidents/${INCIDENT}/updates`, w.plain.access, {
                    status: 'identified',
                    text: 'x',
                })
            ).statusCode
        ).toBe(403);
        const badStatus = await w.call('POST', `/api/incidents/${INCIDENT}/updates`, w.admin.access, {
            status: 'fixed',
            text: 'x',
        });
        expect(badStatus.json().errors).toHaveProperty('status');

        const res = await visit('/api/public/status/public-one');
        expect(res.statusCode).toBe(200);
        const view = res.json();
        expect(view).toMatchObject({
            title: 'Acme validators',
            status: 'down',
            components: [
                { name: 'validator-1 blocks', status: 'down', uptime_90d: 50 },
                { name: 'Block signing', status: 'degraded', uptime_90d: null },
            ],
            incidents: [
                {
                    title: 'validator-1 blocks outage',
                    status: 'identified',
                    updates: [{ status: 'identified', text: 'The validator node is restarting after an upgrade.' }],
                },
            ],
        });
        expect(view.components[0].days).toHaveLength(90);
        expect(view.components[0].days.at(-1)).toEqual({ date: new Date(now).toISOString().slice(0, 10), uptime: 50 });
        // Nothing the console keeps for its members: addresses, error texts, ids, internal names.
        expect(res.body).not.toMatch(
            /10\.0\.0\.5|refused|missed 12|sign misses|"id"|monitor_id|company|validator-1"|26657/
        );
        expect(res.body).not.toContain(INCIDENT);

        const html = await visit('/status/public-one');
        expect(html.statusCode).toBe(200);
        expect(html.headers['content-type']).toMatch(/^text\/html/);
        expect(html.body).toContain('<h1>Acme validators</h1>');
        expect(html.body).toContain('The validator node is restarting after an upgrade.');
        expect(html.body).not.toMatch(/10\.0\.0\.5|refused|sign misses/);

        const badge = await visit('/api/public/status/public-one/badge.svg');
        expect(badge.headers['content-type']).toMatch(/^image\/svg\+xml/);
        expect(badge.body).toContain('<title>status: down</title>');

        const feed = await visit('/status/public-one/feed.atom');
        expect(feed.headers['content-type']).toMatch(/^application\/atom\+xml/);
        expect(feed.body).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
        expect(feed.body).toContain('<title>validator-1 blocks outage: Identified</title>');
        expect(feed.body.match(/<entry>/g)).toHaveLength(2);
    });

    it('escapes names on the page', async () => {
        await w.call(
            'POST',
            '/api/status-pages',
            w.admin.access,
            page({ slug: 'escaped', title: '<script>alert(1)</script>', monitor_ids: [] })
        );
        const html = await visit('/status/escaped');
        expect(html.body).not.toContain('<script>');
        expect(html.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    });

    it('keeps a private page to those with its key, and answers unknown slugs alike', async () => {
        const created = await w.call(
            'POST',
            '/api/status-pages',
            w.admin.access,
            page({ slug: 'private-one', is_public: false })
        );
        expect(created.statusCode).toBe(201);
        const key = created.json().access_key as string;
        expect(key.length).toBeGreaterThanOrEqual(16);
        const read = await w.call('GET', `/api/status-pages/${created.json().id}`, w.admin.access);
        expect(read.json().access_key).toBe(`••••${key.slice(-4)}`);
        for (const url of [
            '/api/public/status/private-one',
            '/status/private-one',
            '/api/public/status/private-one?key=wrong-key-of-some-length',
            '/api/public/status/no-such-page',
        ]) {
            const res = await visit(url);
            expect(res.statusCode, url).toBe(404);
            expect(res.json()).toEqual({ message: 'Status page not found' });
        }
        expect((await visit(`/api/public/status/private-one?key=${encodeURIComponent(key)}`)).statusCode).toBe(200);
        expect((await visit(`/status/private-one/feed.atom?key=${encodeURIComponent(key)}`)).statusCode).toBe(200);
        // A key the admin chooses replaces the generated one, and the mask keeps it.
        const chosen = 'a-key-chosen-by-the-admin';
        const body = { ...created.json(), access_key: chosen };
        expect((await w.call('PUT', `/api/status-pages/${body.id}`, w.admin.access, body)).statusCode).toBe(200);
        expect((await visit(`/api/public/status/private-one?key=${encodeURIComponent(key)}`)).statusCode).toBe(404);
        const masked = { ...body, access_key: `••••${chosen.slice(-4)}` };
        expect((await w.call('PUT', `/api/status-pages/${body.id}`, w.admin.access, masked)).statusCode).toBe(200);
        expect((await visit(`/api/public/status/private-one?key=${chosen}`)).statusCode).toBe(200);
    });

    it('limits each address', async () => {
        const { createTestApp } = await import('./helpers');
        const t = await createTestApp({ statusRateLimitPerMinute: 3 });
        try {
            const codes = [];
            for (let i = 0; i < 5; i++)
                codes.push((await t.app.inject({ url: '/api/public/status/nothing' })).statusCode);
            expect(codes).toEqual([404, 404, 404, 429, 429]);
        } finally {
            await t.close();
        }
    });
});
