import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allowedNetworks, isMetadataAddress, refusalReason } from '../../../server/clients/address-guard';
import { TESTS_PER_MINUTE } from '../../../server/routes/services';
import { createWorld, type World } from '../config-fixtures';
import { auth, createTestApp } from '../helpers';

/** The smaller holes of the third pen test: each one refused, with the field or the limit named. */
let w: World;
let node: Server;
let nodeRequests = 0;
let configuration: number;
let server: number;

beforeAll(async () => {
    w = await createWorld();
    node = createServer((_req, res) => {
        nodeRequests++;
        res.end('# metrics\n');
    });
    await new Promise<void>((r) => node.listen(0, '127.0.0.1', r));
    configuration = await w.configuration(w.admin.access, { name: 'Hub' });
    server = await w.server(w.admin.access, configuration);
});
afterAll(async () => {
    await w.t.close();
    await new Promise((r) => node.close(r));
});

describe('service tests', () => {
    it('are rate limited per user, read-only users included', async () => {
        const port = (node.address() as AddressInfo).port;
        const made = await w.call('POST', '/api/services', w.admin.access, {
            name: 'exporter',
            type: 'node_exporter',
            address: `http://127.0.0.1:${port}`,
            server_id: server,
        });
        expect(made.statusCode, made.body).toBe(201);
        const before = nodeRequests;
        const answers = await Promise.all(
            Array.from({ length: 40 }, () => w.call('GET', `/api/services/${made.json().id}/test`, w.plain.access))
        );
        const codes = answers.map((r) => r.statusCode);
        expect(codes.filter((c) => c === 200)).toHaveLength(TESTS_PER_MINUTE);
        expect(codes.filter((c) => c === 429)).toHaveLength(40 - TESTS_PER_MINUTE);
        expect(answers.find((r) => r.statusCode === 429)?.json().message).toMatch(/^Too many service tests/);
        expect(nodeRequests - before).toBe(TESTS_PER_MINUTE);
        // The limit is the user's: the admin still tests.
        expect((await w.call('GET', `/api/services/${made.json().id}/test`, w.admin.access)).statusCode).toBe(200);
    });
});

describe('NUL in configuration_object', () => {
    it('is refused escaped inside JSON text, for monitors and channels, with a 400 naming the field', async () => {
        const monitor = await w.call('POST', '/api/monitors', w.admin.access, {
            configuration_id: configuration,
            name: 'nul',
            type: 'urlCheck',
            configuration_object: '{"address":"http://127.0.0.1:9/a\\u0000b"}',
        });
        expect(monitor.statusCode).toBe(400);
        expect(Object.keys(monitor.json().errors)).toEqual(['configuration_object']);
        const channel = await w.call('POST', '/api/notification-channels', w.admin.access, {
            name: 'nul',
            type: 'webhook',
            configuration_object: '{"url":"https://hooks.example.com/x","secret":"\\u0000"}',
        });
        expect(channel.statusCode).toBe(400);
        expect(Object.keys(channel.json().errors)).toEqual(['configuration_object']);
    });

    it('a company re-imports its own export', async () => {
        const made = await w.call('POST', '/api/monitors', w.admin.access, {
            configuration_id: configuration,
            name: 'escaped',
            type: 'urlCheck',
            configuration_object: '{"address":"http://127.0.0.1:9/\\u0041"}',
        });
        expect(made.statusCode, made.body).toBe(201);
        const exported = await w.t.app.inject({ url: '/api/export', headers: auth(w.admin.access) });
        expect(exported.statusCode).toBe(200);
        const again = await w.t.app.inject({
            method: 'POST',
            url: '/api/import?dry_run=true',
            headers: { ...auth(w.admin.access), 'content-type': 'application/yaml' },
            payload: exported.body,
        });
        expect(again.statusCode, again.body).toBe(200);
    });
});

describe('allowed_networks over IPv4-mapped space', () => {
    it.each(['::/0', '::/1', '::ffff:0:0/96', '::ffff:7f00:0/104', '64:ff9b::/96', '::/96'])(
        'refuses %s with a 400 naming allowed_networks',
        async (range) => {
            const res = await w.call('PUT', `/api/companies/${w.globex}`, w.root.access, {
                name: 'Globex',
                is_active: true,
                allowed_networks: [range],
            });
            expect(res.statusCode).toBe(400);
            expect(Object.keys(res.json().errors)).toEqual(['allowed_networks']);
            expect(res.json().errors.allowed_networks).toMatch(/IPv4/);
        }
    );

    it('still takes IPv6 ranges outside it, and ::1', async () => {
        const res = await w.call('PUT', `/api/companies/${w.globex}`, w.root.access, {
            name: 'Globex',
            is_active: true,
            allowed_networks: ['fd00::/8', '::1/128', '2001:db8::/32'],
        });
        expect(res.statusCode, res.body).toBe(200);
    });

    it('a ::/0 saved before this check opens neither IPv4 nor loopback', () => {
        const list = allowedNetworks({ allowedNetworks: ['::/0'] });
        for (const address of ['127.0.0.1', '10.0.0.1', '::ffff:127.0.0.1', '::1', '169.254.1.1']) {
            expect(refusalReason(address, false, list), address).not.toBeNull();
        }
    });
});

describe('API tokens', () => {
    it("a super admin's write token can neither create nor promote users, nor mint tokens", async () => {
        const made = await w.call('POST', '/api/tokens', w.root.access, { name: 'automation', scope: 'write' });
        expect(made.statusCode, made.body).toBe(201);
        const token = made.json().token as string;
        const create = await w.call('POST', '/api/users', token, {
            username: 'shadow',
            is_super_admin: true,
            is_admin: true,
            raw_password: 'shadow-password-1',
        });
        expect(create.statusCode).toBe(403);
        expect(create.json().message).toMatch(/API tokens cannot create or change users/);
        const users = (await w.call('GET', '/api/users', token)).json().results as { id: number; username: string }[];
        expect(users.map((u) => u.username)).not.toContain('shadow');
        const bob = users.find((u) => u.username === 'bob');
        const promote = await w.call('PUT', `/api/users/${bob?.id}`, token, {
            username: 'bob',
            is_super_admin: true,
            is_admin: true,
            company_id: null,
            raw_password: 'taken-over-123',
        });
        expect(promote.statusCode).toBe(403);
        expect((await w.call('POST', '/api/tokens', token, { name: 'more', scope: 'write' })).statusCode).toBe(403);
        // The same writes from the signed-in super admin still work.
        const byHand = await w.call('POST', '/api/users', w.root.access, {
            username: 'helper',
            company_id: w.acme,
            raw_password: 'helper-password-1',
        });
        expect(byHand.statusCode, byHand.body).toBe(201);
    });
});

describe('cloud metadata', () => {
    it("refuses Azure's platform endpoint 168.63.129.16 whatever the allowed networks say", async () => {
        expect(isMetadataAddress('168.63.129.16')).toBe(true);
        expect(isMetadataAddress('::ffff:168.63.129.16')).toBe(true);
        const everything = allowedNetworks({ allowedNetworks: ['0.0.0.0/0'] });
        expect(refusalReason('168.63.129.16', true, everything)).toMatch(/cloud metadata/);
        const res = await w.call('POST', '/api/services', w.admin.access, {
            name: 'wire',
            type: 'rpc',
            address: 'http://168.63.129.16/machine',
            server_id: server,
        });
        expect(res.statusCode).toBe(400);
        expect(Object.keys(res.json().errors)).toEqual(['address']);
    });
});

describe('GET /metrics', () => {
    it('answers with Cache-Control: no-store', async () => {
        const t = await createTestApp({ metricsToken: 'prometheus-scrape-token-0123456789' });
        try {
            const ok = await t.app.inject({ url: '/metrics', headers: auth('prometheus-scrape-token-0123456789') });
            expect(ok.statusCode).toBe(200);
            expect(ok.headers['cache-control']).toBe('no-store');
            const refused = await t.app.inject({ url: '/metrics', headers: auth('wrong-token') });
            expect(refused.statusCode).toBe(401);
            expect(refused.headers['cache-control']).toBe('no-store');
        } finally {
            await t.close();
        }
    });

    it('without METRICS_TOKEN is a JSON 404, not the console page', async () => {
        const uiDir = mkdtempSync(join(tmpdir(), 'nm-ui-'));
        writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>Node Monitor</title>');
        const t = await createTestApp({ uiDir });
        try {
            expect((await t.app.inject({ url: '/servers/1' })).headers['content-type']).toMatch(/text\/html/);
            const res = await t.app.inject({ url: '/metrics' });
            expect(res.statusCode).toBe(404);
            expect(res.headers['content-type']).toMatch(/application\/json/);
            expect(res.json()).toEqual({ message: 'Not found' });
        } finally {
            await t.close();
            rmSync(uiDir, { recursive: true, force: true });
        }
    });
});
