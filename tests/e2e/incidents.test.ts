import type { Page } from 'playwright-core';
import type { ChainSim } from '../../tools/chain-sim';
import { startChainSim } from '../../tools/chain-sim';
import type { Console } from './harness';
import { type api, openBrowser, signIn, startConsole } from './harness';
import { BLOCK_PRODUCTION, OPS, seedValidator } from './seed';

/**
 * Incidents in the browser, against the real server and the chain simulator: a node halts, the incident shows on
 * the Incidents page, and its admin acknowledges it from the incident page with a note.
 */
let server: Console;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let sim: ChainSim;
let ops: Awaited<ReturnType<typeof api>>;
let monitorId: number;

beforeAll(async () => {
    sim = await startChainSim({ blockTimeMs: 500 });
    server = await startConsole();
    const seeded = await seedValidator(server.url, sim, { services: ['rpc'], member: OPS });
    ops = seeded.call;
    monitorId = await seeded.monitor('Block production', 'blockCheck', BLOCK_PRODUCTION);
    browser = await openBrowser();
    page = browser.page;
    await signIn(page, server.url, OPS.username, OPS.password);
});
afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sim?.close();
});

type Listed = { results: { id: string; status: string; acknowledged_by: string | null }[] };

it('acknowledges the incident of a halted node from its page, with a note', { timeout: 120_000 }, async () => {
    sim.control.halt(0);
    const deadline = Date.now() + 60_000;
    let open: Listed['results'] = [];
    while (open.length === 0) {
        if (Date.now() > deadline) throw new Error('no incident opened');
        await page.waitForTimeout(500);
        open = (await ops<Listed>('GET', '/incidents?filter={"status":"open"}')).results;
    }
    const id = open[0]?.id ?? '';

    await page.goto(`${server.url}/incidents`);
    await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
    await page.getByLabel('MTTA').waitFor();
    await page.getByRole('cell', { name: 'Block production' }).click();
    await page.waitForURL(`${server.url}/incidents/${id}`);
    await page.getByRole('heading', { name: 'Block production', level: 1 }).waitFor();
    await page.getByText('Not yet').waitFor();

    await page.getByRole('button', { name: 'Acknowledge' }).click();
    const dialog = page.getByRole('dialog', { name: 'Acknowledge incident' });
    await dialog.getByRole('textbox', { name: 'Note (optional)' }).fill('Looking into it');
    await dialog.getByRole('button', { name: 'Acknowledge' }).click();
    await page.getByText('Incident acknowledged').waitFor();
    await page
        .getByRole('table', { name: 'Incident timeline' })
        .getByText('Acknowledged by ops (console): Looking into it')
        .waitFor();
    expect(await page.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
    const after = (await ops<Listed>('GET', '/incidents')).results.find((i) => i.id === id);
    expect(after).toMatchObject({ status: 'open', acknowledged_by: 'ops' });

    // The monitor page links to the open incident.
    await page.goto(`${server.url}/monitor/${monitorId}`);
    await page.getByRole('link', { name: /^Incident open for / }).click();
    await page.waitForURL(`${server.url}/incidents/${id}`);
});
