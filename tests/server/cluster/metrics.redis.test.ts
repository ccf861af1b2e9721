import { type ChainSim, startChainSim } from '../../../tools/chain-sim';
import { seedCompany } from '../helpers';
import { seedNode, waitFor } from '../seed';
import { type ClusterApps, clusterApps } from './apps';

/**
 * /metrics in the cluster profile: two workers check a monitor on BullMQ, and the page of a `web` process (which
 * runs no checks) reports it once, whichever worker checked it last; each page says which process it is of.
 */
const TOKEN = 'prometheus-scrape-token-0123456789';
let c: ClusterApps;
let sim: ChainSim;

const web = (i: number) => c.web(i);

beforeAll(async () => {
    sim = await startChainSim({ blockTimeMs: 200, nodes: 1 });
    const worker = { role: 'worker', engineEnabled: true, metricsToken: TOKEN } as const;
    c = await clusterApps(3, 14, [worker, worker, { role: 'web', engineEnabled: false, metricsToken: TOKEN }]);
    const node = sim.nodes[0];
    if (!node) throw new Error('no node');
    const { monitorId } = await seedNode(web(2), {
        companyId: await seedCompany(web(2), 'Validators'),
        services: [{ type: 'rpc', address: node.rpcUrl }],
        monitor: {
            type: 'blockCheck',
            name: 'Block production',
            settings: { miss_tolerance: 2, miss_tolerance_period_seconds: 3, sleep_duration_seconds: 1 },
        },
    });
    // As the API does: the event reaches the workers' engines through Redis.
    web(2).ctx.events.emit({ name: 'MONITOR_CREATED', monitorId });
});
afterAll(async () => {
    await c?.close();
    await sim?.close();
});

const scrape = async (i: number) =>
    (await web(i).inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
const stateLines = (page: string) =>
    page
        .split('\n')
        .filter((l) => l.startsWith('node_monitor_monitor_state{') && l.includes('monitor="Block production"'));

it("a web process's page reports each monitor the workers check, once, and its incident", async () => {
    await waitFor('the monitor on the web page', async () => stateLines(await scrape(2))[0]?.endsWith(' 0'));
    const page = await scrape(2);
    expect(stateLines(page)).toHaveLength(1);
    expect(page).toMatch(
        /^node_monitor_monitor_last_check_timestamp_seconds\{.*monitor="Block production".*\} \d{10}/m
    );
    expect(page).toMatch(/^node_monitor_monitor_last_success_timestamp_seconds\{.*\} \d{10}/m);
    expect(page).toMatch(/^node_monitor_check_duration_seconds\{.*\} [\d.e-]+$/m);
    // BullMQ hands each check to either worker; every page has the monitor once, from the last check saved.
    expect(stateLines(await scrape(0))).toHaveLength(1);
    expect(stateLines(await scrape(1))).toHaveLength(1);

    sim.control.halt(0);
    await waitFor('the error state on the web page', async () => stateLines(await scrape(2))[0]?.endsWith(' 2'));
    await waitFor('the incident on the web page', async () => /^node_monitor_open_incidents 1$/m.test(await scrape(2)));
    sim.control.resume(0);
});

it('each page names its process: id as /api/health lists it, role, host and pid', async () => {
    const ids = c.apps.map((a) => a.app.ctx.workers.id);
    expect(new Set(ids).size).toBe(3);
    for (const [i, role] of [
        [0, 'worker'],
        [2, 'web'],
    ] as const) {
        const line = (await scrape(i)).split('\n').find((l) => l.startsWith('node_monitor_process_info{'));
        expect(line).toMatch(
            new RegExp(
                `^node_monitor_process_info\\{id="${ids[i]}",role="${role}",host="[^"]+",pid="${process.pid}"\\} 1$`
            )
        );
    }
});
