import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { monitors, users } from '../../server/db/schema';
import { auth, login, seedUser } from './helpers';
import { createWorld, type World } from './config-fixtures';

/**
 * The dashboard lists and the user behind a token, kept in memory: never another company's answer, never older than
 * a write through the API or the time to live.
 */
const TTL_MS = 400;
let w: World;

beforeAll(async () => {
    w = await createWorld({ answerCacheMs: TTL_MS });
});
afterAll(() => w.t.close());

const names = async (url: string, token: string) =>
    (await w.call('GET', url, token)).json().map((r: { name: string }) => r.name);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A monitor in a configuration of its own, through the API; its id. */
async function blockMonitor(configuration: string, name: string): Promise<number> {
    const cfg = await w.configuration(w.admin.access, { name: configuration });
    const srv = await w.server(w.admin.access, cfg, { name: 'val' });
    const res = await w.call('POST', '/api/monitors', w.admin.access, {
        name,
        configuration_id: cfg,
        server_id: srv,
        type: 'blockCheck',
        configuration_object: '{}',
    });
    return res.json().id;
}

it('shows a write through the API at once, to the writer and to the rest of the company', async () => {
    expect(await names('/api/configurations', w.admin.access)).toEqual([]);
    expect(await names('/api/configurations', w.plain.access)).toEqual([]);
    await w.configuration(w.admin.access, { name: 'Hub' });
    expect(await names('/api/configurations', w.admin.access)).toEqual(['Hub']);
    expect(await names('/api/configurations', w.plain.access)).toEqual(['Hub']);
});

it('never answers one company with what it built for another', async () => {
    await w.configuration(w.other.access, { name: 'Globex hub' });
    expect(await names('/api/configurations', w.other.access)).toEqual(['Globex hub']);
    expect(await names('/api/configurations', w.admin.access)).toEqual(['Hub']);
    expect(await names('/api/configurations', w.root.access)).toEqual(expect.arrayContaining(['Hub', 'Globex hub']));
});

it("shows the engine's results (written behind the API) within its time to live", async () => {
    const id = await blockMonitor('Engine', 'height');
    expect(await names('/api/monitors/failed', w.admin.access)).toEqual([]);
    // As the engine's result writer does: straight to the table.
    await w.t.app.ctx.db
        .update(monitors)
        .set({ status: false, lastError: 'halted', lastCheck: new Date() })
        .where(eq(monitors.id, id));
    const seen = performance.now();
    let failed: string[] = [];
    while (failed.length === 0 && performance.now() - seen < 10 * TTL_MS) {
        failed = await names('/api/monitors/failed', w.admin.access);
        if (failed.length === 0) await sleep(50);
    }
    expect(failed).toEqual(['height']);
});

it('answers a caller past the time to live at once with the last answer, and rebuilds it behind', async () => {
    const id = await blockMonitor('Behind', 'peers');
    expect(await names('/api/monitors/failed', w.admin.access)).not.toContain('peers');
    await w.t.app.ctx.db.update(monitors).set({ status: false, lastError: 'no peers' }).where(eq(monitors.id, id));
    await sleep(TTL_MS + 50);
    // Expired: this caller does not wait for a new build; the rebuild it started shows on the next call.
    expect(await names('/api/monitors/failed', w.admin.access)).not.toContain('peers');
    const seen = performance.now();
    let failed: string[] = [];
    while (!failed.includes('peers') && performance.now() - seen < TTL_MS) {
        await sleep(20);
        failed = await names('/api/monitors/failed', w.admin.access);
    }
    expect(failed).toContain('peers');
});

it('serves no client that sends the rebuild header past the cache', async () => {
    const first = await w.call('GET', '/api/audit/latest?range=[0,2]', w.admin.access);
    const select = vi.spyOn(w.t.app.ctx.db, 'select');
    try {
        const again = await w.t.app.inject({
            method: 'GET',
            url: '/api/audit/latest?range=[0,2]',
            headers: { authorization: `Bearer ${w.admin.access}`, 'x-answer-cache-rebuild': 'guess' },
        });
        expect(again.body).toBe(first.body);
        expect(select).not.toHaveBeenCalled();
    } finally {
        select.mockRestore();
    }
});

it('keeps the paging header of the answer it repeats', async () => {
    const first = await w.call('GET', '/api/audit/latest?range=[0,1]', w.admin.access);
    const again = await w.call('GET', '/api/audit/latest?range=[0,1]', w.admin.access);
    expect(first.headers['content-range']).toMatch(/^audit 0-1\/\d+$/);
    expect(again.headers['content-range']).toBe(first.headers['content-range']);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['content-type']).toMatch(/^application\/json/);
});

it('does not keep an error, nor answer a caller without a session', async () => {
    const anonymous = await w.t.app.inject({ url: '/api/monitors/failed' });
    expect(anonymous.statusCode).toBe(401);
    const bad = await w.call('GET', '/api/audit/latest?filter={"monitor_id":"x"}', w.admin.access);
    expect(bad.statusCode).toBe(400);
});

it('ends a session at once when the user is disabled through the API, though the user was remembered', async () => {
    const id = await seedUser(w.t.app, { username: 'gina', companyId: w.acme });
    const session = await login(w.t.app, 'gina');
    expect((await w.call('GET', '/api/monitors/failed', session.access)).statusCode).toBe(200);
    const body = { username: 'gina', is_active: false, is_admin: false, is_super_admin: false, company_id: w.acme };
    expect((await w.call('PUT', `/api/users/${id}`, w.root.access, body)).statusCode).toBe(200);
    expect((await w.call('GET', '/api/monitors/failed', session.access)).statusCode).toBe(401);
});

it('ends a session within the time to live when the user is disabled outside the API', async () => {
    const id = await seedUser(w.t.app, { username: 'hal', companyId: w.acme });
    const session = await login(w.t.app, 'hal');
    expect((await w.call('GET', '/api/users/me', session.access)).statusCode).toBe(200);
    await w.t.app.ctx.db.update(users).set({ isActive: false }).where(eq(users.id, id));
    const since = performance.now();
    let status = 200;
    while (status === 200 && performance.now() - since < 10 * TTL_MS) {
        status = (await w.call('GET', '/api/users/me', session.access)).statusCode;
        if (status === 200) await sleep(50);
    }
    expect(status).toBe(401);
});

it('counts a write sent to a percent-escaped API path as a write too', async () => {
    const id = await seedUser(w.t.app, { username: 'ivy', companyId: w.acme });
    const session = await login(w.t.app, 'ivy');
    expect((await w.call('GET', '/api/configurations', session.access)).statusCode).toBe(200);
    const body = { username: 'ivy', is_active: false, is_admin: false, is_super_admin: false, company_id: w.acme };
    expect((await w.call('PUT', `/%61pi/users/${id}`, w.root.access, body)).statusCode).toBe(200);
    expect((await w.call('GET', '/api/configurations', session.access)).statusCode).toBe(401);
    await w.configuration(w.admin.access, { name: 'Escaped' });
    const created = await w.call('POST', '/%61pi/configurations', w.admin.access, {
        name: 'Via escape',
        chain: 'cosmoshub',
    });
    expect(created.statusCode).toBe(201);
    expect(await names('/api/configurations', w.admin.access)).toContain('Via escape');
});

it('builds one answer for the callers that ask for it at once, and gives it to them all', async () => {
    await w.configuration(w.admin.access, { name: 'Stampede' });
    // The write dropped every answer; the user behind the token is read once more, here.
    expect((await w.call('GET', '/api/users/me', w.admin.access)).statusCode).toBe(200);
    const select = vi.spyOn(w.t.app.ctx.db, 'select');
    try {
        const answers = await Promise.all(
            Array.from({ length: 10 }, () => w.call('GET', '/api/audit/latest?range=[0,4]', w.admin.access))
        );
        // The page and its count: one build, not ten.
        expect(select).toHaveBeenCalledTimes(2);
        expect(new Set(answers.map((a) => a.body)).size).toBe(1);
        expect(
            answers.every((a) => a.statusCode === 200 && /^audit 0-\d+\/\d+$/.test(a.headers['content-range'] ?? ''))
        ).toBe(true);
    } finally {
        select.mockRestore();
    }
});

it('sends a kept answer gzipped to a caller that takes gzip, and as it is to one that does not', async () => {
    for (const name of ['Zip a', 'Zip b', 'Zip c']) await blockMonitor(name, 'height');
    const url = '/api/configurations';
    const get = (encoding?: string) =>
        w.t.app.inject({
            url,
            headers: { ...auth(w.admin.access), ...(encoding === undefined ? {} : { 'accept-encoding': encoding }) },
        });
    /** Asks until the answer comes gzipped: the kept answer is gzipped off the event loop, callers before get JSON. */
    const gzipped = async (encoding = 'gzip') => {
        let res = await get(encoding);
        await expect
            .poll(
                async () => {
                    res = await get(encoding);
                    return res.headers['content-encoding'];
                },
                { timeout: 5000 }
            )
            .toBe('gzip');
        return res;
    };
    const plain = await get('identity');
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const zipped = await gzipped();
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString())).toEqual(plain.json());
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(zipped.headers).toMatchObject({
        vary: 'Accept-Encoding',
        'content-type': 'application/json; charset=utf-8',
    });
    for (const encoding of ['gzip, deflate, br, zstd', 'br;q=1, gzip;q=0.5', '*', 'GZIP ; q=0.3']) {
        expect(JSON.parse(gunzipSync((await gzipped(encoding)).rawPayload).toString())).toEqual(plain.json());
    }
    // Each refusing caller asks right after one that got the gzipped copy: the copy was there, and is not sent.
    for (const refused of ['identity', 'gzip;q=0', '*;q=0', 'deflate, br', '', undefined]) {
        await gzipped();
        const res = await get(refused);
        expect(res.headers['content-encoding']).toBeUndefined();
        expect(res.json()).toEqual(plain.json());
        expect(res.headers.vary).toBe('Accept-Encoding');
    }
});
