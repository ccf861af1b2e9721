import { services } from '../../../server/db/schema';
import { createHttpClient, withPolicy } from '../../../server/clients/http';
import { blockCheckCheck } from '../../../server/engine/checks/blockCheck';
import { type Loopback, startLoopback } from '../check-support';
import { createWorld, type World } from '../config-fixtures';
import { makeCtx } from '../engine/checks/ctx';

/**
 * A tenant must not make the console read the operator's internal network. Loopback, private and
 * link-local targets are refused unless inside the company's `allowed_networks` (set by super admins only), at
 * save and again at connect; metadata is refused always; target answers are never quoted back to users.
 */
const INTERNAL_SECRET = 'internal-only-db-password-7f3a';
const HOW = /ask a super admin to add its range to the company's allowed networks/;

let w: World;
let internal: Loopback;
let globexServer = 0;
let globexConfiguration = 0;

beforeAll(async () => {
    // An internal service of the operator: every page it serves holds a secret.
    internal = await startLoopback((req, res) => {
        if (req.url?.startsWith('/gateway')) {
            res.writeHead(502, { 'content-type': 'application/json' });
            return void res.end(JSON.stringify({ message: 'upstream node is down', secret: INTERNAL_SECRET }));
        }
        if (req.url?.startsWith('/users')) {
            res.writeHead(200, { 'content-type': 'application/json' });
            return void res.end(JSON.stringify([{ username: 'root', note: INTERNAL_SECRET }]));
        }
        if (req.url === '/to-private') {
            res.writeHead(302, { location: 'http://10.255.255.1/' });
            return void res.end();
        }
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`database at 10.0.0.3 refused: ${INTERNAL_SECRET}`);
    });
    w = await createWorld();
    // Globex (admin gus) has no allowed networks; Acme keeps the test default (loopback and 10.0.0.0/8).
    const put = await w.call('PUT', `/api/companies/${w.globex}`, w.root.access, {
        name: 'Globex',
        is_active: true,
        allowed_networks: [],
    });
    expect(put.statusCode).toBe(200);
    globexConfiguration = await w.configuration(w.other.access);
    globexServer = await w.server(w.other.access, globexConfiguration);
});
afterAll(async () => {
    await w.t.close();
    await internal.close();
});

const service = (token: string, serverId: number, address: string) =>
    w.call('POST', '/api/services', token, { name: 'probe', type: 'node_exporter', address, server_id: serverId });
const urlMonitor = (token: string, configurationId: number, address: string) =>
    w.call('POST', '/api/monitors', token, {
        name: 'probe',
        type: 'urlCheck',
        configuration_id: configurationId,
        server_id: null,
        configuration_object: JSON.stringify({ address }),
    });

describe('at save', () => {
    it.each([
        'http://127.0.0.1:8081/api/users',
        'http://localhost:8081/api/users',
        'http://[::1]/',
        'http://2130706433/',
        'http://0x7f.1/',
        'http://0177.0.0.1/',
        'http://[::ffff:127.0.0.1]/',
        'http://[::ffff:7f00:1]/',
        'http://10.1.2.3:9100/metrics',
        'http://172.16.0.1/',
        'http://192.168.1.1/',
        'http://100.64.0.1/',
        'http://[fd12::1]/',
        'http://169.254.10.10/',
        'http://[fe80::1]/',
    ])('refuses %s as a service or monitor address outside the allowed networks', async (address) => {
        const res = await service(w.other.access, globexServer, address);
        expect(res.statusCode).toBe(400);
        expect(res.json().errors.address).toMatch(HOW);
        const mon = await urlMonitor(w.other.access, globexConfiguration, address);
        expect(mon.statusCode).toBe(400);
        expect(mon.json().errors.address).toMatch(HOW);
    });

    it('saves nothing when it refuses', async () => {
        await service(w.other.access, globexServer, 'http://127.0.0.1/');
        const rows = await w.t.app.ctx.db.select().from(services);
        expect(rows.filter((r) => r.serverId === globexServer)).toEqual([]);
    });

    it('accepts a public address and an address inside the allowed networks', async () => {
        expect((await service(w.other.access, globexServer, 'http://203.0.113.7:9100/metrics')).statusCode).toBe(201);
        const acmeConfiguration = await w.configuration(w.admin.access);
        const acmeServer = await w.server(w.admin.access, acmeConfiguration);
        expect((await service(w.admin.access, acmeServer, 'http://10.1.2.3:9100/metrics')).statusCode).toBe(201);
    });
});

describe('allowed_networks on the company', () => {
    it('is shown to super admins and set only by them', async () => {
        const got = await w.call('GET', `/api/companies/${w.acme}`, w.root.access);
        expect(got.json().allowed_networks).toEqual(['127.0.0.0/8', '10.0.0.0/8']);
        const list = await w.call('GET', '/api/companies', w.root.access);
        expect(list.json().results[0]).toHaveProperty('allowed_networks');
        for (const token of [w.admin.access, w.other.access, w.plain.access]) {
            const res = await w.call('PUT', `/api/companies/${w.globex}`, token, {
                name: 'Globex',
                is_active: true,
                allowed_networks: ['0.0.0.0/0'],
            });
            expect(res.statusCode).toBe(403);
        }
    });

    it.each([['10.0.0.0'], ['10.0.0.0/33'], ['not-an-ip/8'], ['fd00::/129'], [42]])(
        'refuses %j with a 400 naming allowed_networks',
        async (bad) => {
            const res = await w.call('PUT', `/api/companies/${w.globex}`, w.root.access, {
                name: 'Globex',
                is_active: true,
                allowed_networks: [bad],
            });
            expect(res.statusCode).toBe(400);
            expect(Object.keys(res.json().errors)).toEqual(['allowed_networks']);
        }
    );

    it('opens its ranges once a super admin adds them, but never cloud metadata', async () => {
        const put = await w.call('PUT', `/api/companies/${w.globex}`, w.root.access, {
            name: 'Globex',
            is_active: true,
            allowed_networks: ['127.0.0.0/8', '169.254.0.0/16', 'fd00::/8'],
        });
        expect(put.json().allowed_networks).toEqual(['127.0.0.0/8', '169.254.0.0/16', 'fd00::/8']);
        expect((await service(w.other.access, globexServer, 'http://127.0.0.1:9100/metrics')).statusCode).toBe(201);
        expect((await service(w.other.access, globexServer, 'http://169.254.10.10/')).statusCode).toBe(201);
        for (const metadata of [
            'http://169.254.169.254/latest/meta-data/',
            'http://2852039166/',
            'http://[fd00:ec2::254]/',
            'http://metadata.google.internal/',
        ]) {
            const res = await service(w.other.access, globexServer, metadata);
            expect(res.statusCode, metadata).toBe(400);
        }
        // Back to none for the tests that follow.
        await w.call('PUT', `/api/companies/${w.globex}`, w.root.access, {
            name: 'Globex',
            is_active: true,
            allowed_networks: [],
        });
    });
});

describe('at connect', () => {
    it('refuses a saved address once the range leaves the allowed networks (and tells how to fix it)', async () => {
        // A row saved while the range was allowed, or before the upgrade.
        const serverId = await w.server(w.other.access, globexConfiguration);
        const [row] = await w.t.app.ctx.db
            .insert(services)
            .values({ serverId, name: 'old', type: 'node_exporter', address: `${internal.url}/` })
            .returning();
        const res = await w.call('GET', `/api/servers/${serverId}/metrics`, w.other.access);
        expect(res.statusCode).toBe(502);
        expect(res.json().message).toMatch(HOW);
        const test = await w.call('GET', `/api/services/${row?.id}/test`, w.other.access);
        expect(test.statusCode).toBe(502);
        expect(test.json().message).toMatch(HOW);
    });

    it('judges DNS answers and redirects against the policy, numeric forms included', async () => {
        const toLoopback = createHttpClient({ resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
        const port = new URL(internal.url).port;
        await expect(toLoopback.request(`http://internal.example:${port}/`)).rejects.toThrow(HOW);
        const allowed = withPolicy(toLoopback, { allowedNetworks: ['127.0.0.0/8'] });
        expect((await allowed.request(`http://internal.example:${port}/`)).status).toBe(500);
        await expect(allowed.request(`${internal.url}/to-private`)).rejects.toThrow(
            /10\.255\.255\.1 .*allowed networks/
        );
        const tenOnly = withPolicy(createHttpClient(), { allowedNetworks: ['10.0.0.0/8'] });
        for (const url of ['http://2130706433/', 'http://0x7f.1/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/']) {
            await expect(tenOnly.request(url), url).rejects.toThrow(HOW);
        }
        const everything = withPolicy(createHttpClient({ allowPrivate: true }), { allowedNetworks: ['0.0.0.0/0'] });
        await expect(everything.request('http://[::ffff:169.254.169.254]/')).rejects.toThrow('cloud metadata');
    });
});

describe('answers of targets are not reflected', () => {
    let acmeServer = 0;
    beforeAll(async () => {
        acmeServer = await w.server(w.admin.access, await w.configuration(w.admin.access));
    });

    it('server metrics name the status, never the body, even to a plain user', async () => {
        expect((await service(w.admin.access, acmeServer, `${internal.url}/secret`)).statusCode).toBe(201);
        const res = await w.call('GET', `/api/servers/${acmeServer}/metrics`, w.plain.access);
        expect(res.statusCode).toBe(502);
        expect(res.json().message).toMatch(/answered HTTP 500 Internal Server Error$/);
        expect(res.body).not.toContain(INTERNAL_SECRET);
        expect(res.body).not.toContain('10.0.0.3');
    });

    it('a JSON answer that is not the expected protocol is not quoted either', async () => {
        const srv = await w.server(w.admin.access, await w.configuration(w.admin.access));
        expect((await service(w.admin.access, srv, `${internal.url}/users`)).statusCode).toBe(201);
        const res = await w.call('GET', `/api/servers/${srv}/metrics`, w.plain.access);
        expect(res.statusCode).toBe(502);
        expect(res.body).not.toContain(INTERNAL_SECRET);
        expect(res.body).not.toContain('root');
    });

    it("a check's last_error keeps a gateway's JSON message and the status, nothing else", async () => {
        const ctx = makeCtx('blockCheck', {}, { rpc: `${internal.url}/gateway`, rest: `${internal.url}/users` });
        const err = (await blockCheckCheck.read(ctx).catch((e: unknown) => e)) as Error;
        expect(err.message).toContain('HTTP 502 Bad Gateway: upstream node is down');
        expect(err.message).not.toContain(INTERNAL_SECRET);
        expect(err.message).not.toContain('root');
    });
});
