import type { Page } from 'playwright-core';
import type { Console } from './harness';
import { ADMIN_PASSWORD, api, openBrowser, signIn, startConsole } from './harness';

let server: Console;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;

beforeAll(async () => {
    server = await startConsole({ ENGINE_ENABLED: 'false' });
    browser = await openBrowser();
    page = browser.page;
});
afterAll(async () => {
    await browser?.close();
    await server?.stop();
});

const menuItem = (p: Page, name: string) => p.getByRole('menuitem', { name, exact: true });

describe('the console shell in a real browser', () => {
    it('signs the super admin in through the login form and shows the full menu', async () => {
        await signIn(page, server.url, 'admin', ADMIN_PASSWORD);
        for (const entry of [
            'Dashboard',
            'Configurations',
            'Notification channels',
            'Network Status',
            'Users',
            'Company',
            'Tail log',
            'Audit',
            'Logout',
        ]) {
            await menuItem(page, entry).waitFor();
        }
    });

    it('creates a company and a user through the screens', async () => {
        await page.goto(`${server.url}/companies`);
        await page.getByRole('button', { name: 'Add Company' }).click();
        await page.getByRole('dialog').getByRole('textbox', { name: 'Name' }).fill('Cosmos Validators');
        await page.getByRole('dialog').getByRole('button', { name: 'Add' }).click();
        await page.getByText('Company created successfully').waitFor();
        await page.getByText('Cosmos Validators').first().waitFor();

        await page.goto(`${server.url}/users`);
        await page.getByRole('button', { name: 'Add User' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('textbox', { name: 'Username' }).fill('operator');
        await dialog.locator('input[type=password]').fill('operator-password');
        await dialog.getByLabel('Company').click();
        await page.getByRole('option', { name: 'Cosmos Validators' }).click();
        await dialog.getByRole('button', { name: 'Add' }).click();
        await page.getByText('User created successfully').waitFor();
        await page.getByText('operator', { exact: true }).first().waitFor();
    });

    it('reloads a deep link of the browser router', async () => {
        const call = await api(server.url, 'admin', ADMIN_PASSWORD);
        const companies = await call<{ results: { id: number; name: string }[] }>('GET', '/companies');
        const id = companies.results.find((c) => c.name === 'Cosmos Validators')?.id;
        await page.goto(`${server.url}/companies/${id}`);
        await page.reload();
        await page
            .getByText('Cosmos Validators')
            .first()
            .waitFor()
            .catch(async (err: Error) => {
                // What the page shows instead, to tell a stuck load from a lost session.
                const shown = (
                    await page
                        .locator('body')
                        .innerText()
                        .catch(() => '')
                ).slice(0, 500);
                throw new Error(`${err.message}\nat ${page.url()}, the page shows: ${shown}`);
            });
        expect(new URL(page.url()).pathname).toBe(`/companies/${id}`);
    });

    it('keeps the session when a reload cuts the user request short', async () => {
        // The user request hangs, so the reload aborts it in flight; that says nothing about the session.
        await page.route('**/api/users/me', async (route) => {
            await new Promise((r) => setTimeout(r, 3000));
            await route.continue().catch(() => undefined);
        });
        await page.goto(`${server.url}/companies`);
        await page.reload({ waitUntil: 'commit' });
        await page.unroute('**/api/users/me');
        await page.getByText('Cosmos Validators').first().waitFor();
        expect(new URL(page.url()).pathname).toBe('/companies');
    });

    it('shows a plain user the menu without Users, Company and Tail log, and logs out to /login', async () => {
        const other = await openBrowser();
        try {
            await signIn(other.page, server.url, 'operator', 'operator-password');
            await menuItem(other.page, 'Configurations').waitFor();
            for (const hidden of ['Users', 'Company', 'Tail log']) {
                expect(await menuItem(other.page, hidden).count()).toBe(0);
            }
            await menuItem(other.page, 'Logout').click();
            await other.page.waitForURL(/\/login$/);
            const stored = await other.page.evaluate(() => localStorage.getItem('securityTokens'));
            expect(stored).toBeNull();
        } finally {
            await other.close();
        }
    });
});
