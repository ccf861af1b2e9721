import { type ChainSim, startChainSim } from '../../../tools/chain-sim';
import { auth, createTestApp, login, seedCompany, seedUser, type TestApp } from '../helpers';
import { seedNode, waitFor } from '../seed';

/**
 * A disk filled by the simulator at a steady rate gets a days-until-full estimate within 20 % of the
 * truth, from the running engine's disk check, on the server's disk history and on Network Status's metrics.
 */
let sim: ChainSim;
let t: TestApp;

beforeAll(async () => {
    sim = await startChainSim({ autoStart: false });
    t = await createTestApp({ engineEnabled: true });
});
afterAll(async () => {
    await t?.close();
    await sim?.close();
});

it('projects a steady fill within 20 % of the truth', { timeout: 120_000 }, async () => {
    const node = sim.nodes[0];
    if (!node) throw new Error('no node');
    const companyId = await seedCompany(t.app, 'Validators Inc');
    await seedUser(t.app, { username: 'ops', companyId });
    const token = (await login(t.app, 'ops')).access;
    const { serverId } = await seedNode(t.app, {
        companyId,
        services: [{ type: 'node_exporter', address: node.nodeExporterUrl }],
        monitor: { type: 'nodeExporterDiskSpace', settings: { threshold: 99, check_interval_seconds: 5 } },
    });
    const RATE = 6; // % an hour
    sim.control.fillDisk(0, '/var/lib/cosmos', RATE, 40);
    const started = Date.now();
    const truth = () => (100 - (40 + (RATE * (Date.now() - started)) / 3_600_000)) / (RATE * 24);
    const projected = await waitFor(
        'a days-until-full estimate',
        async () => {
            const res = await t.app.inject({ url: `/api/servers/${serverId}/disk-history`, headers: auth(token) });
            const mount = res
                .json()
                .mountpoints.find((m: { mountpoint: string }) => m.mountpoint === '/var/lib/cosmos');
            return mount?.days_until_full ?? null;
        },
        90_000
    );
    expect(Math.abs(projected - truth()) / truth()).toBeLessThan(0.2);
    const metrics = (await t.app.inject({ url: `/api/servers/${serverId}/metrics`, headers: auth(token) })).json();
    expect(metrics.mountpoint).toBe('/var/lib/cosmos');
    expect(Math.abs(metrics.days_until_full - truth()) / truth()).toBeLessThan(0.2);
    // The root filesystem does not grow: "not growing".
    const root = (await t.app.inject({ url: `/api/servers/${serverId}/disk-history`, headers: auth(token) }))
        .json()
        .mountpoints.find((m: { mountpoint: string }) => m.mountpoint === '/');
    expect(root?.days_until_full ?? null).toBeNull();
});
