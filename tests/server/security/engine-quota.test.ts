import { eq } from 'drizzle-orm';
import { companies } from '../../../server/db/schema';
import type { TestApp, Tokens } from '../helpers';
import { auth, createTestApp, login, seedCompany, seedUser } from '../helpers';
import { seedNode } from '../seed';

/**
 * A super admin sets each company's share of the engine (`max_concurrent_checks`,
 * `min_interval_seconds`); a company admin cannot, and cannot save a monitor that runs more often than the
 * company's minimum. The engine side is in tests/server/engine/quota.sim.test.ts and scheduler-fairness.test.ts.
 */
let t: TestApp;
let acme: number;
let root: Tokens;
let admin: Tokens;

beforeAll(async () => {
    t = await createTestApp();
    acme = await seedCompany(t.app, 'Acme');
    await seedUser(t.app, { username: 'root', isSuperAdmin: true, isAdmin: true });
    await seedUser(t.app, { username: 'acme-admin', companyId: acme, isAdmin: true });
    root = await login(t.app, 'root');
    admin = await login(t.app, 'acme-admin');
});
afterAll(() => t.close());

const VALOPER = 'cosmosvaloper1sjllsnramtg3ewxqwwrwjxfgc4n4ef9u2lcnj0';

const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url, headers: auth(token), payload });

describe('company quota fields', () => {
    it('shows the defaults, sets both, and keeps them when a body of name and is_active alone is saved', async () => {
        const created = await call('POST', '/api/companies', root.access, { name: 'Globex', is_active: true });
        expect(created.json()).toMatchObject({ max_concurrent_checks: 64, min_interval_seconds: 1 });
        const id = created.json().id;
        const put = await call('PUT', `/api/companies/${id}`, root.access, {
            name: 'Globex',
            is_active: true,
            max_concurrent_checks: 8,
            min_interval_seconds: 30,
        });
        expect(put.statusCode).toBe(200);
        expect(put.json()).toMatchObject({ max_concurrent_checks: 8, min_interval_seconds: 30 });
        await call('PUT', `/api/companies/${id}`, root.access, { name: 'Globex Corp', is_active: true });
        const read = await call('GET', `/api/companies/${id}`, root.access);
        expect(read.json()).toMatchObject({ name: 'Globex Corp', max_concurrent_checks: 8, min_interval_seconds: 30 });
        const list = await call('GET', '/api/companies', root.access);
        expect(list.json().results.find((c: { id: number }) => c.id === id)).toMatchObject({
            max_concurrent_checks: 8,
            min_interval_seconds: 30,
        });
    });

    it.each([
        [{ max_concurrent_checks: 0 }, 'max_concurrent_checks', 'Max concurrent checks must be at least 1'],
        [{ max_concurrent_checks: 257 }, 'max_concurrent_checks', 'Max concurrent checks must be at most 256'],
        [{ max_concurrent_checks: 2.5 }, 'max_concurrent_checks', 'Max concurrent checks must be a whole number'],
        [{ min_interval_seconds: '5' }, 'min_interval_seconds', 'Min interval (seconds) must be a whole number'],
        [{ min_interval_seconds: 0 }, 'min_interval_seconds', 'Min interval (seconds) must be at least 1'],
        [{ min_interval_seconds: 86_401 }, 'min_interval_seconds', 'Min interval (seconds) must be at most 86400'],
    ])('answers 400 naming the field for %j', async (quota, field, message) => {
        const res = await call('PUT', `/api/companies/${acme}`, root.access, {
            name: 'Acme',
            is_active: true,
            ...quota,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toEqual({ [field]: message });
    });

    it('cannot be set or read by a company admin', async () => {
        const body = { name: 'Acme', is_active: true, max_concurrent_checks: 256, min_interval_seconds: 1 };
        expect((await call('PUT', `/api/companies/${acme}`, admin.access, body)).statusCode).toBe(403);
        expect((await call('GET', `/api/companies/${acme}`, admin.access)).statusCode).toBe(403);
        const [row] = await t.app.ctx.db.select().from(companies).where(eq(companies.id, acme));
        expect(row).toMatchObject({ maxConcurrentChecks: 64, minIntervalSeconds: 1 });
    });
});

describe("the company's minimum check interval", () => {
    it('refuses a monitor set to run more often, naming the setting and the minimum; accepts the minimum', async () => {
        const strict = await seedCompany(t.app, 'Strict');
        await t.app.ctx.db.update(companies).set({ minIntervalSeconds: 10 }).where(eq(companies.id, strict));
        await seedUser(t.app, { username: 'strict-admin', companyId: strict, isAdmin: true });
        const tokens = await login(t.app, 'strict-admin');
        const node = await seedNode(t.app, {
            companyId: strict,
            services: [],
            monitor: { type: 'urlCheck', settings: { address: 'http://127.0.0.1:9/' } },
        });
        const monitor = (type: string, settings: object) => ({
            name: `${type} of validator-1`,
            type,
            is_enabled: true,
            configuration_id: node.configurationId,
            server_id: node.serverId,
            configuration_object: JSON.stringify(settings),
        });
        const tooFast = await call(
            'POST',
            '/api/monitors',
            tokens.access,
            monitor('blockCheck', { sleep_duration_seconds: 5 })
        );
        expect(tooFast.statusCode).toBe(400);
        expect(tooFast.json().errors).toEqual({
            sleep_duration_seconds:
                "Sleep Duration (seconds) must be at least 10: this company's minimum check interval is 10 seconds",
        });
        // signMissCheck's default of 5 s is below it too.
        const byDefault = await call(
            'POST',
            '/api/monitors',
            tokens.access,
            monitor('signMissCheck', { valoper_address: 'cosmosvaloper1sjllsnramtg3ewxqwwrwjxfgc4n4ef9u2lcnj0' })
        );
        expect(byDefault.json().errors).toHaveProperty('sleep_duration_seconds');
        const disk = await call(
            'POST',
            '/api/monitors',
            tokens.access,
            monitor('nodeExporterDiskSpace', { threshold: 80, check_interval_seconds: 5 })
        );
        expect(disk.json().errors).toEqual({
            check_interval_seconds:
                "Check Interval (seconds) must be at least 10: this company's minimum check interval is 10 seconds",
        });
        const ok = await call(
            'POST',
            '/api/monitors',
            tokens.access,
            monitor('blockCheck', { sleep_duration_seconds: 10 })
        );
        expect(ok.statusCode).toBe(201);
        // Another company's minimum is its own: Acme (1 s) still saves a 1 s monitor.
        const acmeNode = await seedNode(t.app, {
            companyId: acme,
            services: [],
            monitor: { type: 'urlCheck', settings: { address: 'http://127.0.0.1:9/' } },
        });
        const acmeFast = await call('POST', '/api/monitors', admin.access, {
            ...monitor('blockCheck', { sleep_duration_seconds: 1 }),
            configuration_id: acmeNode.configurationId,
            server_id: acmeNode.serverId,
        });
        expect(acmeFast.statusCode).toBe(201);
    });

    it.each(['slashingWindow', 'governanceVote', 'upgradeWatch'])(
        'refuses a %s monitor below it too, on create and on save',
        async (type) => {
            const slow = await seedCompany(t.app, `Slow ${type}`);
            await t.app.ctx.db.update(companies).set({ minIntervalSeconds: 600 }).where(eq(companies.id, slow));
            await seedUser(t.app, { username: `slow-${type}`, companyId: slow, isAdmin: true });
            const tokens = await login(t.app, `slow-${type}`);
            const node = await seedNode(t.app, {
                companyId: slow,
                services: [],
                monitor: { type: 'urlCheck', settings: { address: 'http://127.0.0.1:9/' } },
            });
            const body = (sleep: number) => ({
                name: `${type} of validator-1`,
                type,
                is_enabled: true,
                configuration_id: node.configurationId,
                server_id: node.serverId,
                configuration_object: JSON.stringify({
                    ...(type === 'upgradeWatch' ? {} : { valoper_address: VALOPER }),
                    sleep_duration_seconds: sleep,
                }),
            });
            const refused = {
                sleep_duration_seconds:
                    "Sleep Duration (seconds) must be at least 600: this company's minimum check interval is 600 seconds",
            };
            const tooFast = await call('POST', '/api/monitors', tokens.access, body(60));
            expect(tooFast.statusCode).toBe(400);
            expect(tooFast.json().errors).toEqual(refused);
            const created = await call('POST', '/api/monitors', tokens.access, body(600));
            expect(created.statusCode).toBe(201);
            const saved = await call('PUT', `/api/monitors/${created.json().id}`, tokens.access, body(599));
            expect(saved.statusCode).toBe(400);
            expect(saved.json().errors).toEqual(refused);
        }
    );
});
