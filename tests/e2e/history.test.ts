import type { Page } from 'playwright-core';
import type { ChainSim } from '../../tools/chain-sim';
import { startChainSim } from '../../tools/chain-sim';
import type { Console } from './harness';
import { ADMIN_PASSWORD, type api, openBrowser, signIn, startConsole } from './harness';
import { BLOCK_PRODUCTION, seedValidator } from './seed';

/**
 * Monitor and disk history in the browser, against the real server and the chain simulator: the status bar fills as
 * checks run, a halted node shows as Error bars and as its incident's band on the charts, the range exports as CSV, and
 * a disk the simulator fills at a steady rate shows a days-until-full estimate on the server page close to the truth.
 */
const FILL_PER_HOUR = 0.25; // percent points: 60 points to go take 240 hours, 10 days
const FILL_FROM = 40;
const DATA_MOUNT = '/var/lib/cosmos';

let server: Console;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let sim: ChainSim;
let call: Awaited<ReturnType<typeof api>>;
let monitorId: number;
let serverId: number;
let fillStarted: number;

beforeAll(async () => {
    sim = await startChainSim({ blockTimeMs: 500 });
    server = await startConsole();
    // The disk fills from the start, so its growth is measured while the outage part runs.
    sim.control.fillDisk(0, DATA_MOUNT, FILL_PER_HOUR, FILL_FROM);
    fillStarted = Date.now();
    const seeded = await seedValidator(server.url, sim, {
        company: 'Ops',
        configuration: 'Hub',
        server: 'hub-val',
        services: ['rpc', 'node_exporter'],
    });
    call = seeded.call;
    serverId = seeded.serverId;
    await seeded.monitor('Disk space', 'nodeExporterDiskSpace', { threshold: 99, check_interval_seconds: 5 });
    monitorId = await seeded.monitor('Block production', 'blockCheck', BLOCK_PRODUCTION);
    browser = await openBrowser();
    page = browser.page;
    await signIn(page, server.url, 'admin', ADMIN_PASSWORD);
});
afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sim?.close();
});

/** Polls `probe` until it answers something other than null. */
async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const found = await probe();
        if (found !== null) return found;
        if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs / 1000} s`);
        await new Promise((r) => setTimeout(r, 500));
    }
}

type Listed = { results: { id: string; status: string }[] };

describe('monitor history', () => {
    it('fills the status bar, then shows an outage as Error bars, its incident band and a lower uptime', async () => {
        await page.goto(`${server.url}/monitor/${monitorId}`);
        const bar = page.getByRole('list', { name: /^Last \d+ checks$/ });
        // The bar refreshes every 30 s; reloading shows the checks run since.
        await until('five OK checks', async () => {
            const checks = await call<{ results: unknown[] }>('GET', `/monitors/${monitorId}/checks?limit=10`);
            return checks.results.length >= 5 ? true : null;
        });
        await page.reload();
        await bar
            .getByRole('listitem', { name: /^OK at / })
            .nth(4)
            .waitFor();

        sim.control.halt(0);
        const filter = encodeURIComponent(JSON.stringify({ monitor_id: monitorId }));
        await until('incident for the halted node', async () => {
            const open = await call<Listed>('GET', `/incidents?filter=${filter}`);
            return open.results.length > 0 ? true : null;
        });
        await page.reload();
        await bar
            .getByRole('listitem', { name: /^Error at / })
            .first()
            .waitFor();
        const latency = page.getByRole('figure', { name: 'Latency (ms)' });
        await latency.locator('.MuiLineChart-linePlot path[d]').first().waitFor({ state: 'attached' });
        // The incident is shaded on the charts, from its opening to now.
        await latency.locator('rect[opacity="0.18"]').first().waitFor({ state: 'attached' });
        const uptime24h = page.getByRole('term').filter({ hasText: '24 hours' }).locator('xpath=following-sibling::dd');
        expect(Number.parseFloat((await uptime24h.textContent()) ?? '')).toBeLessThan(100);
        sim.control.resume(0);
    });

    it('exports the range as CSV', async () => {
        const download = page.waitForEvent('download');
        await page.getByRole('link', { name: 'Download CSV' }).click();
        expect((await download).suggestedFilename()).toBe(`monitor-${monitorId}-history.csv`);
    });
});

describe('disk history', () => {
    it('shows a steadily filling disk full in as many days as the fill rate says, within 20 %', async () => {
        type Disk = { mountpoints: { mountpoint: string; days_until_full: number | null }[] };
        await until('days-until-full estimate', async () => {
            const disk = await call<Disk>('GET', `/servers/${serverId}/disk-history`);
            return disk.mountpoints.find((m) => m.mountpoint === DATA_MOUNT)?.days_until_full ?? null;
        });
        await page.goto(`${server.url}/servers/${serverId}`);
        const figure = page.getByRole('figure', { name: `Disk ${DATA_MOUNT}` });
        await figure.getByText(/Full in \d+ days/).waitFor();
        const shown = Number(/Full in (\d+) days/.exec((await figure.textContent()) ?? '')?.[1]);
        const used = FILL_FROM + (FILL_PER_HOUR * (Date.now() - fillStarted)) / 3_600_000;
        const truth = (100 - used) / (FILL_PER_HOUR * 24);
        expect(Math.abs(shown - truth) / truth).toBeLessThan(0.2);
        // The root filesystem does not grow.
        await page.getByRole('figure', { name: 'Disk /' }).getByText('Not growing').waitFor();
    });
});
