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
        // The checks and the visit below on one day: a visit after midnight would show them in yesterday's bar.
        const toMidnight = 86_400_000 - (Date.now() % 86_400_000);
        if (toMidnight < 15_000) await new Promise((done) => setTimeout(done, toMidnight + 100));
        const now = Date.now();
        // Both checks today, even just after midnight: earlier days are read from rollups this test does not write.
        const first = Math.max(now - 120_000, Math.floor(now / 86_400_000) * 86_400_000);
        await db.insert(checkResults).values([
            { monitorId: node, t: new Date(first), level: 0 },
            { monitorId: node, t: new Date((first + now) / 2), level: 2, message: 'connection refused' },
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

describe('subscriptions', () => {
    it('confirms e-mail by a button, sends webhooks at once, tells both of an update, and unsubscribes', {
        timeout: 60_000,
    }, async () => {
        const { startReceiver, startSmtp } = await import('../support/fake-receivers');
        const { OutboxDispatcher } = await import('../../server/notify/outbox');
        const smtp = await startSmtp();
        const hook = await startReceiver({ status: 200, body: 'ok' });
        const outbox = new OutboxDispatcher(w.t.app.ctx, w.t.app.log, 100);
        try {
            const created = await w.call('POST', '/api/status-pages', w.admin.access, page({ slug: 'subscribed' }));
            const pageId = created.json().id as number;
            const sub = (body: object) =>
                w.t.app.inject({ method: 'POST', url: '/api/public/status/subscribed/subscribe', payload: body });

            // No e-mail channel in the company yet: nothing would send the mail.
            const noMail = await sub({ email: 'delegator@example.com' });
            expect(noMail.statusCode).toBe(400);
            expect(noMail.json().errors).toHaveProperty('email');
            expect((await sub({ email: 'not an address' })).json().errors).toHaveProperty('email');
            expect((await sub({ email: 'a@example.com', webhook: hook.url })).statusCode).toBe(400);
            const channel = await w.call('POST', '/api/notification-channels', w.admin.access, {
                name: 'Mail',
                type: 'email',
                is_enabled: true,
                configuration_object: {
                    host: '127.0.0.1',
                    port: smtp.port,
                    security: 'none',
                    from: 'Acme status <status@example.com>',
                    to: 'ops@example.com',
                },
            });
            expect(channel.statusCode).toBe(201);

            expect((await sub({ email: 'delegator@example.com' })).statusCode).toBe(202);
            expect((await sub({ webhook: `${hook.url}/status` })).statusCode).toBe(202);
            await outbox.deliverDue();
            const confirmMail = smtp.mails.find((m) => m.to.includes('delegator@example.com'));
            expect(confirmMail?.raw).toContain('Confirm your subscription to Acme validators');
            expect(smtp.mails.some((m) => m.to.includes('ops@example.com'))).toBe(false);
            const link = /http:\/\/localhost(:\d+)?(\/status\/subscriptions\/[A-Za-z0-9_-]+\/confirm)/.exec(
                confirmMail?.raw.replace(/=\r?\n/g, '') ?? ''
            );
            expect(link).not.toBeNull();
            const path = link?.[2] ?? '';
            // Opening the link (as a mail scanner does) changes nothing; the button does.
            const ask = await w.t.app.inject({ url: path });
            expect(ask.body).toContain('<button type="submit">Confirm</button>');
            let list = (await w.call('GET', `/api/status-pages/${pageId}/subscribers`, w.admin.access)).json().results;
            expect(list.map((s: { kind: string; confirmed: boolean }) => [s.kind, s.confirmed])).toEqual([
                ['email', false],
                ['webhook', true],
            ]);
            expect((await w.call('GET', `/api/status-pages/${pageId}/subscribers`, w.plain.access)).statusCode).toBe(
                403
            );
            const confirmed = await w.t.app.inject({
                method: 'POST',
                url: path,
                headers: { 'content-type': 'application/x-www-form-urlencoded' },
                payload: '',
            });
            expect(confirmed.statusCode).toBe(200);
            expect(confirmed.body).toContain('<h1>Subscribed</h1>');

            const incident = '55555555-0000-4000-8000-000000000009';
            await w.t.app.ctx.db.insert(incidents).values({
                id: incident,
                companyId: w.acme,
                kind: 'monitor',
                configurationId: cfg,
                configurationName: 'Main',
                monitorId: signing,
                monitorName: 'sign misses',
                message: 'missed 3 blocks',
                payload: '{}',
                openedAt: new Date(),
            });
            const posted = await w.call('POST', `/api/incidents/${incident}/updates`, w.admin.access, {
                status: 'monitoring',
                text: 'Signing again since block 1,204,400.',
            });
            expect(posted.statusCode).toBe(201);
            await outbox.deliverDue();
            // Quoted-printable wraps long lines with a soft break (=, line end).
            const update = smtp.mails
                .filter((m) => m.to.includes('delegator@example.com'))
                .at(-1)
                ?.raw.replace(/=\r?\n/g, '');
            expect(update).toContain('Acme validators: Block signing update');
            expect(update).toContain('Monitoring: Signing again since block 1,204,400.');
            const delivered = hook.received.filter((r) => r.path === '/status').at(-1);
            expect(JSON.stringify(delivered?.json)).toContain('Signing again since block 1,204,400.');
            expect(JSON.stringify(delivered?.json)).toMatch(/Unsubscribe: http:\/\/localhost[^"]*\/unsubscribe/);
            expect(JSON.stringify(delivered?.json)).not.toContain('sign misses');

            // Maintenance of the configuration: one message per subscriber, however many of its monitors a page shows.
            const inHour = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
            const win = await w.call('POST', '/api/maintenance-windows', w.admin.access, {
                configuration_id: cfg,
                starts_at: inHour(1),
                ends_at: inHour(2),
                reason: 'Upgrading the validator to v19',
            });
            expect(win.statusCode).toBe(201);
            await outbox.deliverDue();
            const planned = hook.received.filter((r) => JSON.stringify(r.json).includes('maintenance planned'));
            expect(planned).toHaveLength(1);
            expect(JSON.stringify(planned[0]?.json)).toContain('Upgrading the validator to v19');

            const unsubscribe = /(\/status\/subscriptions\/[A-Za-z0-9_-]+\/unsubscribe)/.exec(update ?? '')?.[1];
            const gone = await w.t.app.inject({
                method: 'POST',
                url: unsubscribe ?? '',
                headers: { 'content-type': 'application/x-www-form-urlencoded' },
                payload: '',
            });
            expect(gone.body).toContain('<h1>Unsubscribed</h1>');
            list = (await w.call('GET', `/api/status-pages/${pageId}/subscribers`, w.admin.access)).json().results;
            expect(list.map((s: { kind: string }) => s.kind)).toEqual(['webhook']);
            expect(
                (await w.call('DELETE', `/api/status-pages/${pageId}/subscribers/${list[0].id}`, w.other.access))
                    .statusCode
            ).toBe(404);
            expect(
                (await w.call('DELETE', `/api/status-pages/${pageId}/subscribers/${list[0].id}`, w.admin.access))
                    .statusCode
            ).toBe(204);
        } finally {
            await outbox.stop();
            await smtp.close();
            await hook.close();
        }
    });
});

describe('the page form', () => {
    it('subscribes an e-mail address from the page without scripts, and says why not in words', async () => {
        await w.call('POST', '/api/status-pages', w.admin.access, page({ slug: 'form-page' }));
        const html = await visit('/status/form-page');
        expect(html.body).toContain('<form method="post" action="/status/form-page/subscribe"');
        const post = (email: string) =>
            w.t.app.inject({
                method: 'POST',
                url: '/status/form-page/subscribe',
                headers: { 'content-type': 'application/x-www-form-urlencoded' },
                payload: new URLSearchParams({ email }).toString(),
            });
        const bad = await post('<b>not-an-address');
        expect(bad.statusCode).toBe(400);
        expect(bad.body).toContain('<h1>Not subscribed</h1>');
        expect(bad.body).not.toContain('<b>not');
        const ok = await post('reader@example.com');
        expect(ok.statusCode).toBe(200);
        expect(ok.body).toContain('Check your inbox');
    });
});
