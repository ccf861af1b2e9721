import { loadTargets } from '../../../server/engine/targets';
import { type Loopback, startLoopback } from '../check-support';
import { createWorld, type World } from '../config-fixtures';

/**
 * `http://user:pass@host` in service and monitor addresses was stored in clear and returned in
 * full to read-only users. Now encrypted at rest, masked on every read, kept when the mask is sent back, and used
 * for real by the egress paths only.
 */
const PASSWORD = 'Sup3rS3cretExporterPass';
const SECRET = /Sup3rS3cret/;

let w: World;
let exporter: Loopback;
const seenAuth: string[] = [];
let configurationId = 0;
let serverId = 0;
let serviceId = 0;
let monitorId = 0;

beforeAll(async () => {
    exporter = await startLoopback((req, res) => {
        seenAuth.push(req.headers.authorization ?? '');
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('node_memory_MemTotal_bytes 100\nnode_memory_MemAvailable_bytes 40\n');
    });
    w = await createWorld();
    configurationId = await w.configuration(w.admin.access);
    serverId = await w.server(w.admin.access, configurationId);
    const withCredentials = exporter.url.replace('http://', `http://scraper:${PASSWORD}@`);
    const svc = await w.call('POST', '/api/services', w.admin.access, {
        name: 'exporter',
        type: 'node_exporter',
        address: `${withCredentials}/metrics`,
        server_id: serverId,
    });
    expect(svc.statusCode).toBe(201);
    expect(svc.body).not.toMatch(SECRET);
    serviceId = svc.json().id;
    const mon = await w.call('POST', '/api/monitors', w.admin.access, {
        name: 'health',
        type: 'urlCheck',
        configuration_id: configurationId,
        server_id: null,
        configuration_object: JSON.stringify({ address: `${withCredentials}/health` }),
    });
    expect(mon.statusCode).toBe(201);
    expect(mon.body).not.toMatch(SECRET);
    monitorId = mon.json().id;
});
afterAll(async () => {
    await w.t.close();
    await exporter.close();
});

describe('passwords in target URLs', () => {
    it('are masked on every read, for every role', async () => {
        for (const token of [w.root.access, w.admin.access, w.plain.access]) {
            for (const url of [
                '/api/configurations',
                `/api/configurations/${configurationId}`,
                `/api/servers/${serverId}`,
                `/api/servers/${serverId}/services`,
                `/api/configurations/${configurationId}/servers`,
                `/api/configurations/${configurationId}/monitors`,
                `/api/monitors/${monitorId}`,
                '/api/monitors/failed',
                '/api/monitors/warnings',
            ]) {
                const res = await w.call('GET', url, token);
                expect(res.statusCode, url).toBe(200);
                expect(res.body, url).not.toMatch(SECRET);
            }
        }
        const services = (await w.call('GET', `/api/servers/${serverId}/services`, w.plain.access)).json();
        const list = Array.isArray(services) ? services : services.results;
        expect(list[0].address).toBe(`${exporter.url.replace('http://', 'http://scraper:••••@')}/metrics`);
        const monitor = (await w.call('GET', `/api/monitors/${monitorId}`, w.plain.access)).json();
        expect(JSON.parse(monitor.configuration_object).address).toMatch(
            /^http:\/\/scraper:••••@127\.0\.0\.1:\d+\/health$/
        );
    });

    it('are encrypted at rest', async () => {
        for (const table of ['services', 'monitors']) {
            const rows = await w.t.app.ctx.db.execute(`select * from ${table}`);
            expect(JSON.stringify(rows), table).not.toMatch(SECRET);
            expect(JSON.stringify(rows), table).toContain('enc:v1:');
        }
    });

    it('are used for real by the egress paths: service test, server metrics and the engine', async () => {
        seenAuth.length = 0;
        expect((await w.call('GET', `/api/services/${serviceId}/test`, w.plain.access)).statusCode).toBe(200);
        expect((await w.call('GET', `/api/servers/${serverId}/metrics`, w.plain.access)).statusCode).toBe(200);
        const basic = `Basic ${Buffer.from(`scraper:${PASSWORD}`).toString('base64')}`;
        expect(seenAuth).toEqual([basic, basic]);
        const { targets } = await loadTargets(w.t.app.ctx.db, w.t.app.ctx.keys.secretsAtRest);
        const monitor = targets.find((t) => t.id === monitorId);
        expect(monitor?.settings.address).toBe(
            `${exporter.url.replace('http://', `http://scraper:${PASSWORD}@`)}/health`
        );
    });

    it('are kept when an edit sends the mask back, and not sent to another host', async () => {
        const masked = `${exporter.url.replace('http://', 'http://scraper:••••@')}/metrics`;
        const body = { name: 'exporter', type: 'node_exporter', address: masked, server_id: serverId };
        const kept = await w.call('PUT', `/api/services/${serviceId}`, w.admin.access, body);
        expect(kept.statusCode).toBe(200);
        seenAuth.length = 0;
        await w.call('GET', `/api/services/${serviceId}/test`, w.admin.access);
        expect(seenAuth[0]).toBe(`Basic ${Buffer.from(`scraper:${PASSWORD}`).toString('base64')}`);

        const elsewhere = await w.call('PUT', `/api/services/${serviceId}`, w.admin.access, {
            ...body,
            address: 'http://scraper:••••@127.0.0.2:9100/metrics',
        });
        expect(elsewhere.statusCode).toBe(400);
        expect(elsewhere.json().errors.address).toMatch(/Enter the password again/);

        const mon = await w.call('PUT', `/api/monitors/${monitorId}`, w.admin.access, {
            name: 'health',
            type: 'urlCheck',
            configuration_id: configurationId,
            server_id: null,
            configuration_object: JSON.stringify({ address: masked.replace('/metrics', '/health') }),
        });
        expect(mon.statusCode).toBe(200);
        const { targets } = await loadTargets(w.t.app.ctx.db, w.t.app.ctx.keys.secretsAtRest);
        expect(targets.find((t) => t.id === monitorId)?.settings.address).toContain(`scraper:${PASSWORD}@`);
    });

    it('stay out of logs and audit entries', async () => {
        expect(w.t.logs.join('\n')).not.toMatch(SECRET);
        expect(JSON.stringify(await w.audit())).not.toMatch(SECRET);
    });
});
