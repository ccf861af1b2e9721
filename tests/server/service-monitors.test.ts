import { defaultServiceAddress, SERVICE_TYPES } from '../../common/service-types';
import { CHECKS } from '../../server/engine/checks';
import { loadTargets } from '../../server/engine/targets';
import { monitorsForService } from '../../src/resources/services/serviceMonitors';
import { type ChainSim, startChainSim } from '../../tools/chain-sim';
import { createWorld, type World } from './config-fixtures';
import { makeCtx } from './engine/checks/ctx';

/** A monitor created with a service belongs to it: it follows its address and name, and goes when it goes. */
let w: World;
let cfg: number;
let srv: number;

beforeAll(async () => {
    w = await createWorld({ answerCacheMs: 0 });
    cfg = await w.configuration(w.admin.access, { name: 'Hub' });
    srv = await w.server(w.admin.access, cfg, { name: 'val' });
});
afterAll(() => w.t.close());

/** Creates a service and its monitors the way the Add Service dialog does. */
async function addService(type: (typeof SERVICE_TYPES)[number], address: string, server = srv) {
    const res = await w.call('POST', '/api/services', w.admin.access, {
        name: type,
        type,
        address,
        is_enabled: true,
        server_id: server,
    });
    expect(res.statusCode).toBe(201);
    const service = res.json();
    const monitors = [];
    for (const body of monitorsForService(service, server, cfg)) {
        const m = await w.call('POST', '/api/monitors', w.admin.access, { ...body, service_id: service.id });
        expect(m.statusCode).toBe(201);
        monitors.push(m.json());
    }
    return { service, monitors };
}

const monitor = async (id: number) => w.call('GET', `/api/monitors/${id}`, w.admin.access);

describe('deleting a service', () => {
    it('names what it takes along, then removes the monitors created with it', async () => {
        const s2 = await w.server(w.admin.access, cfg, { name: 'val-2' });
        const { service, monitors } = await addService('node_exporter', 'http://10.0.0.5:9100/metrics', s2);
        const rest = await addService('rest', 'http://10.0.0.5:1317', s2);
        const sign = await w.call('POST', '/api/monitors', w.admin.access, {
            name: 'signing',
            configuration_id: cfg,
            server_id: s2,
            type: 'signMissCheck',
            configuration_object: JSON.stringify({
                valoper_address: 'cosmosvaloper1qurswpc8qurswpc8qurswpc8qurswpc8k8n0vj',
            }),
        });
        expect(sign.statusCode).toBe(201);

        const neDeps = await w.call('GET', `/api/services/${service.id}/dependents`, w.admin.access);
        expect(neDeps.json()).toEqual({
            removed: monitors.map((m) => ({ id: m.id, name: m.name, type: m.type })),
            losing_data_source: [],
        });
        const restDeps = await w.call('GET', `/api/services/${rest.service.id}/dependents`, w.admin.access);
        expect(restDeps.json()).toEqual({
            removed: [{ id: rest.monitors[0].id, name: 'rest', type: 'urlCheck' }],
            losing_data_source: [{ id: sign.json().id, name: 'signing', type: 'signMissCheck' }],
        });
        // Another company's service reads as missing.
        expect((await w.call('GET', `/api/services/${service.id}/dependents`, w.other.access)).statusCode).toBe(404);

        const del = await w.call('DELETE', `/api/services/${service.id}`, w.admin.access);
        expect(del.statusCode).toBe(200);
        expect(del.json().removed_monitors.map((m: { name: string }) => m.name)).toEqual([
            'node_exporter',
            'node_exporter disk space',
        ]);
        for (const m of monitors) expect((await monitor(m.id)).statusCode).toBe(404);
        expect((await monitor(sign.json().id)).statusCode).toBe(200);
        expect((await w.audit()).map((a) => a.message)).toContain(
            'Service "node_exporter" deleted by alice with its monitors node_exporter, node_exporter disk space'
        );
    });

    it("names the monitors of every type that reads REST when the server's last REST service goes", async () => {
        const s4 = await w.server(w.admin.access, cfg, { name: 'val-4' });
        const rest = await addService('rest', 'http://10.0.0.6:1317', s4);
        const valoper = 'cosmosvaloper1qurswpc8qurswpc8qurswpc8qurswpc8k8n0vj';
        const readers = [];
        for (const [type, settings] of [
            ['slashingWindow', { valoper_address: valoper }],
            ['governanceVote', { valoper_address: valoper }],
            ['upgradeWatch', {}],
        ] as const) {
            const res = await w.call('POST', '/api/monitors', w.admin.access, {
                name: type,
                configuration_id: cfg,
                server_id: s4,
                type,
                configuration_object: JSON.stringify(settings),
            });
            expect(res.statusCode).toBe(201);
            readers.push({ id: res.json().id, name: type, type });
        }
        const deps = await w.call('GET', `/api/services/${rest.service.id}/dependents`, w.admin.access);
        expect(deps.json()).toEqual({
            removed: [{ id: rest.monitors[0].id, name: 'rest', type: 'urlCheck' }],
            losing_data_source: readers,
        });
    });

    it('refuses a service of another server as the monitor link', async () => {
        const s3 = await w.server(w.admin.access, cfg, { name: 'val-3' });
        const { service } = await addService('rpc', 'http://10.0.0.5:26657', s3);
        const res = await w.call('POST', '/api/monitors', w.admin.access, {
            ...monitorsForService(service, srv, cfg)[0],
            service_id: service.id,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toHaveProperty('service_id');
    });
});

describe('editing a service', () => {
    it('moves the monitor created with it to the new address and name, until the monitor gets its own', async () => {
        const { service, monitors } = await addService('rpc', 'http://10.0.0.5:26657');
        const put = (body: object) =>
            w.call('PUT', `/api/services/${service.id}`, w.admin.access, { ...service, ...body });
        expect((await put({ address: 'http://10.0.0.6:26657', name: 'rpc main' })).statusCode).toBe(200);
        const moved = (await monitor(monitors[0].id)).json();
        expect(moved.name).toBe('rpc main');
        expect(JSON.parse(moved.configuration_object)).toMatchObject({
            name: 'rpc main',
            address: 'http://10.0.0.6:26657',
        });

        const own = JSON.stringify({
            ...JSON.parse(moved.configuration_object),
            address: 'http://10.0.0.9:26657/health',
        });
        const edit = await w.call('PUT', `/api/monitors/${moved.id}`, w.admin.access, {
            ...moved,
            configuration_object: own,
        });
        expect(edit.statusCode).toBe(200);
        await put({ address: 'http://10.0.0.7:26657', name: 'rpc main' });
        const kept = (await monitor(moved.id)).json();
        expect(JSON.parse(kept.configuration_object).address).toBe('http://10.0.0.9:26657/health');
        expect(kept.service_id).toBe(service.id);
    });
});

describe('the monitor created for each service type', () => {
    let sim: ChainSim;
    beforeAll(async () => {
        sim = await startChainSim({ autoStart: false, initialBlocks: 3 });
    });
    afterAll(() => sim.close());

    const node = () => {
        const n = sim.nodes[0];
        if (!n) throw new Error('no node');
        return n;
    };
    const protocolOf = { rpc: 'rpc', rest: 'rest', prometheus: 'metrics', node_exporter: 'nodeExporter' } as const;

    it.each(SERVICE_TYPES)('%s: healthy on a healthy node, failing when the service is down', async (type) => {
        // The spec's default address: the node's host plus the type's port and path.
        const ports = {
            rpc: node().rpcUrl,
            rest: node().restUrl,
            prometheus: node().metricsUrl,
            node_exporter: node().nodeExporterUrl,
        };
        const host = new URL(ports[type]);
        const address = defaultServiceAddress(`http://${host.hostname}`, type).replace(
            /:\d+/,
            `:${new URL(ports[type]).port}`
        );
        const server = await w.server(w.admin.access, cfg, { name: `sim-${type}`, address: `http://${host.hostname}` });
        const { monitors } = await addService(type, address, server);
        const { targets } = await loadTargets(w.t.app.ctx.db, w.t.app.ctx.keys.secretsAtRest);
        const target = targets.find((t) => t.id === monitors[0].id);
        if (!target) throw new Error('no target');
        const ctx = makeCtx('urlCheck', target.settings, {});
        ctx.monitor.serviceType = target.serviceType;
        const judge = async () => {
            try {
                const value = await CHECKS.urlCheck.read(ctx);
                return CHECKS.urlCheck.evaluate(undefined, { ok: true, value }, { allowed_attempts: 0 }, Date.now());
            } catch (err) {
                return CHECKS.urlCheck.evaluate(
                    undefined,
                    { ok: false, error: String(err) },
                    { allowed_attempts: 0 },
                    Date.now()
                );
            }
        };
        expect((await judge()).verdict).toEqual({ level: 'ok', message: null });
        sim.control.setFault(0, protocolOf[type], { status: 503 });
        expect((await judge()).verdict.level).toBe('error');
        sim.control.setFault(0, protocolOf[type], { drop: true });
        expect((await judge()).verdict.level).toBe('error');
        sim.control.clearFaults(0);
    });

    it("Test Endpoint of a rest service reads the gateway's node_info, not its 501 root", async () => {
        const server = await w.server(w.admin.access, cfg, { name: 'sim-rest-test', address: 'http://127.0.0.1' });
        const { service } = await addService('rest', node().restUrl, server);
        const res = await w.call('GET', `/api/services/${service.id}/test`, w.admin.access);
        expect(res.statusCode).toBe(200);
        sim.control.setFault(0, 'rest', { status: 503 });
        expect((await w.call('GET', `/api/services/${service.id}/test`, w.admin.access)).statusCode).toBe(503);
        sim.control.clearFaults(0);
    });

    it('the rest gateway root answers 501 as on a real node', async () => {
        const res = await fetch(`${node().restUrl}/`);
        expect(res.status).toBe(501);
    });
});
