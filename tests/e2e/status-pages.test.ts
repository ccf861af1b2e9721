import type { Page } from 'playwright-core';
import type { ChainSim } from '../../tools/chain-sim';
import { startChainSim } from '../../tools/chain-sim';
import type { Console } from './harness';
import { type api, openBrowser, runAxe, signIn, startConsole } from './harness';
import { BLOCK_PRODUCTION, OPS, seedValidator } from './seed';

/**
 * A company admin publishes a status page in the console; a browser without a session watches it go down and back
 * with the incident and its public update, while the badge and the feed follow. The page is axe-clean in both colour
 * schemes and fits a phone.
 */
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

let server: Console;
let admin: Awaited<ReturnType<typeof openBrowser>>;
let visitor: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let sim: ChainSim;
let ops: Awaited<ReturnType<typeof api>>;

beforeAll(async () => {
    sim = await startChainSim({ blockTimeMs: 500 });
    server = await startConsole();
    const seeded = await seedValidator(server.url, sim, { services: ['rpc'], member: OPS });
    ops = seeded.call;
    await seeded.monitor('Block production', 'blockCheck', BLOCK_PRODUCTION);
    admin = await openBrowser();
    visitor = await openBrowser();
    page = admin.page;
    await signIn(page, server.url, OPS.username, OPS.password);
});
afterAll(async () => {
    await admin?.close();
    await visitor?.close();
    await server?.stop();
    await sim?.close();
});

/** Reloads the public page (answers are cached for 10 s) until `text` shows. */
async function waitOnPublicPage(text: string | RegExp) {
    const deadline = Date.now() + 90_000;
    for (;;) {
        await visitor.page.goto(`${server.url}/status/hub-status`);
        if ((await visitor.page.getByText(text).count()) > 0) return;
        if (Date.now() > deadline) throw new Error(`the status page never showed ${text}`);
        await visitor.page.waitForTimeout(2000);
    }
}

it('publishes a page that visitors see go down and back, with the public update', { timeout: 240_000 }, async () => {
    await page.goto(`${server.url}/status-pages`);
    await page.getByRole('link', { name: 'Add status page' }).click();
    await page.getByRole('textbox', { name: 'Title' }).fill('Hub validator status');
    await page.getByRole('textbox', { name: 'Slug' }).fill('hub-status');
    await page.getByRole('combobox', { name: 'Monitors shown as components' }).click();
    await page.getByRole('option', { name: 'Block production' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Status page created').waitFor();
    await page.getByRole('heading', { name: 'Preview' }).waitFor();
    await page.getByRole('link', { name: '/status/hub-status' }).waitFor();

    await waitOnPublicPage('All systems operational');
    await visitor.page.getByRole('heading', { name: 'Block production' }).waitFor();

    sim.control.halt(0);
    await waitOnPublicPage('Block production outage');
    await visitor.page.getByText('Outage', { exact: true }).waitFor();
    expect(await (await fetch(`${server.url}/api/public/status/hub-status/badge.svg`)).text()).toContain(
        'status: down'
    );

    // The admin tells visitors what is going on, from the incident page.
    const open = await ops<{ results: { id: string }[] }>('GET', '/incidents?filter={"status":"open"}');
    await page.goto(`${server.url}/incidents/${open.results[0]?.id}`);
    await page.getByRole('heading', { name: 'Public updates' }).waitFor();
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Identified' }).click();
    await page
        .getByRole('textbox', { name: 'Update for the status pages' })
        .fill('The node is restarting after a halt.');
    await page.getByRole('button', { name: 'Post update' }).click();
    await page.getByText('Public update posted').waitFor();
    await waitOnPublicPage('The node is restarting after a halt.');
    const feed = await (await fetch(`${server.url}/status/hub-status/feed.atom`)).text();
    expect(feed).toContain('<title>Block production outage: Identified</title>');
    // Nothing the console keeps for its members reaches the page.
    const html = await visitor.page.content();
    expect(html).not.toMatch(/127\.0\.0\.1|hub-validator|Hub mainnet|rpc/);

    sim.control.resume(0);
    await waitOnPublicPage('All systems operational');
    await visitor.page.getByRole('heading', { name: 'Past incidents' }).waitFor();
    await visitor.page
        .getByText(/resolved/)
        .first()
        .waitFor();
    expect(await (await fetch(`${server.url}/api/public/status/hub-status/badge.svg`)).text()).toContain(
        'status: operational'
    );
});

describe.each(['light', 'dark'] as const)('the public page in the %s scheme', (scheme) => {
    it('passes axe-core and fits 390 px', async () => {
        await visitor.page.emulateMedia({ colorScheme: scheme });
        await visitor.page.setViewportSize({ width: 390, height: 844 });
        await visitor.page.goto(`${server.url}/status/hub-status`);
        const { violations } = await runAxe(visitor.page, { runOnly: { type: 'tag', values: WCAG } });
        expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
        const overflow = await visitor.page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth
        );
        expect(overflow).toBe(0);
    });
});

it('keeps a private page to visitors with its key', async () => {
    const [created] = (await ops<{ results: { id: number; monitor_ids: number[] }[] }>('GET', '/status-pages')).results;
    if (!created) throw new Error('no status page');
    const saved = await ops<{ access_key: string }>('PUT', `/status-pages/${created.id}`, {
        slug: 'hub-status',
        title: 'Hub validator status',
        is_public: false,
        monitor_ids: created.monitor_ids,
    });
    // A new address: the browser may keep the public answer it had for 10 s.
    const res = await visitor.page.goto(`${server.url}/status/hub-status?after=private`);
    expect(res?.status()).toBe(404);
    const withKey = await visitor.page.goto(
        `${server.url}/status/hub-status?key=${encodeURIComponent(saved.access_key)}`
    );
    expect(withKey?.status()).toBe(200);
    await visitor.page.getByRole('heading', { name: 'Hub validator status', level: 1 }).waitFor();
});
