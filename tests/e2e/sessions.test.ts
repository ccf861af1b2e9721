import type { Page } from 'playwright-core';
import type { Console } from './harness';
import { ADMIN_PASSWORD, api, openBrowser, signIn, startConsole } from './harness';

/**
 * Sessions in a real browser with access tokens that expire after 5 s: two tabs of one browser refreshing at once
 * stay signed in, and a session that ends says why on the sign-in page.
 */
let server: Console;
let browser: Awaited<ReturnType<typeof openBrowser>>;

beforeAll(async () => {
    // Refreshes count against the sign-in rate limit, and with 5 s tokens two tabs refresh often.
    server = await startConsole({ ACCESS_TOKEN_TTL_SECONDS: '5', LOGIN_RATE_LIMIT_PER_MINUTE: '1000' });
    browser = await openBrowser();
});
afterAll(async () => {
    await browser?.close();
    await server?.stop();
});

const signedIn = (page: Page) => page.getByRole('menuitem', { name: 'Logout' }).waitFor({ timeout: 20_000 });
const accessExpired = () => new Promise((resolve) => setTimeout(resolve, 6_000));

describe('sessions', () => {
    it('keeps two tabs signed in when both find their access token expired at once', async () => {
        const first = browser.page;
        await signIn(first, server.url, 'admin', ADMIN_PASSWORD);
        const second = await browser.context.newPage();
        await second.goto(`${server.url}/configurations`);
        await signedIn(second);
        const refreshes: number[] = [];
        browser.context.on('response', (res) => {
            if (res.url().endsWith('/api/refresh')) refreshes.push(res.status());
        });
        // A slow answer to the first refresh: the other tab needs a new token before it has come back.
        await browser.context.route('**/api/refresh', async (route) => {
            await new Promise((resolve) => setTimeout(resolve, 4_000));
            await route.continue();
        });
        for (let round = 0; round < 2; round++) {
            await accessExpired();
            await Promise.all([first.reload(), second.reload()]);
            await Promise.all([signedIn(first), signedIn(second)]);
        }
        expect(refreshes.length).toBeGreaterThan(0);
        expect(refreshes.every((status) => status === 200)).toBe(true);
        expect(new URL(first.url()).pathname).not.toBe('/login');
        expect(new URL(second.url()).pathname).not.toBe('/login');
        await browser.context.unroute('**/api/refresh');
        await second.close();
    });

    it('says on the sign-in page that another tab signed out', async () => {
        const first = browser.page;
        await first.goto(`${server.url}/`);
        await signedIn(first);
        const second = await browser.context.newPage();
        await second.goto(`${server.url}/configurations`);
        await signedIn(second);
        await first.getByRole('menuitem', { name: 'Logout' }).click();
        await first.getByRole('button', { name: 'Sign in' }).waitFor();
        await second.reload();
        await second.getByRole('button', { name: 'Sign in' }).waitFor();
        await second.getByText('You were signed out (in another tab or window), please sign in again').waitFor();
        // The tab that signed out needs no explanation.
        expect(await first.getByRole('alert').count()).toBe(0);
        await second.close();
    });

    it("says on the sign-in page that the user's password was changed", async () => {
        const page = browser.page;
        const call = await api(server.url, 'admin', ADMIN_PASSWORD);
        const company = await call('POST', '/companies', { name: 'Operators', is_active: true });
        const user = await call('POST', '/users', {
            username: 'operator',
            is_active: true,
            is_admin: false,
            is_super_admin: false,
            company_id: company.id,
            raw_password: 'operator-password',
        });
        await signIn(page, server.url, 'operator', 'operator-password');
        // A caller of its own: the first one's access token has expired meanwhile.
        const admin = await api(server.url, 'admin', ADMIN_PASSWORD);
        await admin('PUT', `/users/${user.id}`, {
            username: 'operator',
            is_active: true,
            is_admin: false,
            is_super_admin: false,
            company_id: company.id,
            raw_password: 'another-password',
        });
        await page.goto(`${server.url}/configurations`);
        await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 20_000 });
        await page.getByText('Your password was changed, please sign in again').waitFor();
    });
});
