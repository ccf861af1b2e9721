import type { Page } from 'playwright-core';
import type { Console } from './harness';
import { ADMIN_PASSWORD, api, openBrowser, signIn, startConsole } from './harness';

/**
 * The configuration grid against the real server: it asks for one page of cards at a time with the filter bar's
 * values, so a super admin with more configurations than a page reaches all of them, and the route stays plain.
 */
let server: Console;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;

beforeAll(async () => {
    server = await startConsole({ ENGINE_ENABLED: 'false' });
    const root = await api(server.url, 'admin', ADMIN_PASSWORD);
    const alpha = await root('POST', '/companies', { name: 'Alpha Co', is_active: true });
    const beta = await root('POST', '/companies', { name: 'Beta Co', is_active: true });
    for (let n = 1; n <= 26; n++) {
        await root('POST', '/configurations', {
            name: `Node ${String(n).padStart(2, '0')}`,
            chain: 'osmosis',
            is_enabled: true,
            company_id: alpha.id,
        });
    }
    await root('POST', '/configurations', {
        name: 'Other hub',
        chain: 'cosmoshub',
        is_enabled: true,
        company_id: beta.id,
    });
    await root('POST', '/configurations', { name: 'Retired', chain: 'juno', is_enabled: false, company_id: alpha.id });
    browser = await openBrowser();
    page = browser.page;
    await signIn(page, server.url, 'admin', ADMIN_PASSWORD);
});
afterAll(async () => {
    await browser?.close();
    await server?.stop();
});

const cards = () => page.getByRole('article', { name: /^Configuration / });
const cardNames = async () => (await cards().getByRole('heading').allTextContents()).map((name) => name.trim());

async function choose(label: string, option: string) {
    await page.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
}

describe('the configuration grid, page by page', () => {
    it('shows the first 24 enabled configurations by name, then the rest on the next page', async () => {
        await page.goto(`${server.url}/configurations`);
        await page.getByRole('heading', { name: 'Node 01' }).waitFor();
        expect(await cardNames()).toHaveLength(24);
        expect((await cardNames()).at(-1)).toBe('Node 24');
        await page.getByText('1-24 of 27').waitFor();
        await page.getByRole('button', { name: 'Go to next page' }).scrollIntoViewIfNeeded();
        expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);

        // The pagination sits below the grid; the next page is shown from its top.
        await page.getByRole('button', { name: 'Go to next page' }).click();
        await page.getByRole('heading', { name: 'Other hub' }).waitFor();
        await page.waitForFunction(() => window.scrollY === 0);
        expect(await cardNames()).toEqual(['Node 25', 'Node 26', 'Other hub']);
        await page.getByText('25-27 of 27').waitFor();
        expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/configurations');
    });

    it('filters on the server by search, company and enabled', async () => {
        await page.getByLabel('Search').fill('node 2');
        await page.getByText('1-7 of 7').waitFor();
        expect(await cardNames()).toEqual([
            'Node 20',
            'Node 21',
            'Node 22',
            'Node 23',
            'Node 24',
            'Node 25',
            'Node 26',
        ]);

        await page.getByLabel('Search').fill('');
        await choose('Company', 'Beta Co');
        await page.getByText('1-1 of 1').waitFor();
        expect(await cardNames()).toEqual(['Other hub']);

        await choose('Company', 'Alpha Co');
        await choose('Enabled', 'Disabled');
        await page.getByText('1-1 of 1').waitFor();
        expect(await cardNames()).toEqual(['Retired']);

        await choose('Status', 'Error');
        await page.getByText('No configurations found').waitFor();
    });
});
