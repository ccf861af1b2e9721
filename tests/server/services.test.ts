import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWorld, type World } from './config-fixtures';

let w: World;
let serverId: number;
let probe: http.Server;
let probeUrl: string;
beforeAll(async () => {
    w = await createWorld();
    const cfg = await w.configuration(w.admin.access);
    serverId = await w.server(w.admin.access, cfg);
    // Answers the status named in the path: /status/503 → 503.
    probe = http.createServer((req, res) => {
        const m = /\/status\/(\d+)/.exec(req.url ?? '');
        res.writeHead(m ? Number(m[1]) : 200, { 'content-type': 'text/plain' });
        res.end('ok');
    });
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    probeUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
});
afterAll(async () => {
    await w.t.close();
    await new Promise((resolve) => probe.close(resolve));
});

const create = async (body: object) => w.call('POST', '/api/services', w.admin.access, body);

describe('services', () => {
    it('creates, lists under the server, updates and deletes, audited with events', async () => {
        const res = await create({ name: 'rpc', type: 'rpc', address: 'http://10.0.0.5:26657', server_id: serverId });
        expect(res.statusCode).toBe(201);
        const s = res.json();
        expect(s).toMatchObject({ name: 'rpc', type: 'rpc', is_enabled: true, server_id: serverId });
        expect((await w.call('GET', `/api/servers/${serverId}/services`, w.plain.access)).json()).toEqual([s]);
        const put = await w.call('PUT', `/api/services/${s.id}`, w.admin.access, {
            ...s,
            name: 'rest',
            type: 'rest',
            address: 'http://10.0.0.5:1317',
            is_enabled: false,
        });
        expect(put.json()).toMatchObject({ id: s.id, name: 'rest', type: 'rest', is_enabled: false });
        expect((await w.call('DELETE', `/api/services/${s.id}`, w.admin.access)).statusCode).toBe(200);
        expect((await w.call('GET', `/api/servers/${serverId}/services`, w.plain.access)).json()).toEqual([]);
        for (const name of ['SERVICE_CREATED', 'SERVICE_UPDATED', 'SERVICE_DELETED'] as const) {
            expect(w.events).toContainEqual(expect.objectContaining({ name, serverId }));
        }
        const messages = (await w.audit()).map((a) => a.message);
        expect(messages).toEqual(
            expect.arrayContaining(['Service "rpc" created by alice', 'Service "rest" deleted by alice'])
        );
    });

    it.each([
        [{ type: 'grpc' }, 'type', 'Type must be one of rpc, rest, prometheus, node_exporter'],
        [{ address: 'gopher://x' }, 'address', 'Address must be an http(s) URL'],
        [
            { address: 'http://169.254.169.254/' },
            'address',
            'Address must not point at a cloud metadata or link-local address',
        ],
        [{ server_id: 999999 }, 'server_id', 'Server not found'],
        [{ name: '' }, 'name', 'Name is required'],
    ])('refuses %j naming %s', async (patch, field, text) => {
        const res = await create({
            name: 'x',
            type: 'rpc',
            address: 'http://10.0.0.5:26657',
            server_id: serverId,
            ...patch,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors[field]).toBe(text);
    });

    it('tests a service: the same status code as the service, 502 when it does not answer', async () => {
        const ok = (
            await create({ name: 'ok', type: 'rpc', address: `${probeUrl}/status/200`, server_id: serverId })
        ).json();
        const bad = (
            await create({ name: 'bad', type: 'rpc', address: `${probeUrl}/status/503`, server_id: serverId })
        ).json();
        const dead = (
            await create({ name: 'dead', type: 'rpc', address: 'http://127.0.0.1:9/', server_id: serverId })
        ).json();
        expect((await w.call('GET', `/api/services/${ok.id}/test`, w.plain.access)).statusCode).toBe(200);
        expect((await w.call('GET', `/api/services/${bad.id}/test`, w.plain.access)).statusCode).toBe(503);
        const res = await w.call('GET', `/api/services/${dead.id}/test`, w.plain.access);
        expect(res.statusCode).toBe(502);
        expect(res.json().message).toMatch(/^dead did not answer: .*refused the connection/);
        expect((await w.call('GET', `/api/services/${ok.id}/test`, w.other.access)).statusCode).toBe(404);
    });
});
