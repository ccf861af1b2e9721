import type { RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';
import type { Console } from './harness';
import { ADMIN_PASSWORD, api, openBrowser, runAxe, signIn, startConsole } from './harness';

/**
 * Every route of the spec (§2) checked by axe-core for WCAG 2.1 A and AA, in the light and the dark theme, and at
 * 390 px wide without a horizontal page scroll.
 */
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

let server: Console;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let ids: Record<string, number>;

/** Every route of the spec, with `:name` for the ids the fixtures get (a test per route: one slow page fails alone). */
const ROUTES = [
    '/',
    '/configurations',
    '/configurations/:configuration',
    '/servers',
    '/servers/:server',
    '/monitor/:monitor',
    '/network-status',
    '/audit',
    '/incidents',
    '/notification-channels',
    '/companies',
    '/companies/:company',
    '/companies/:company/edit',
    '/companies/add',
    '/users',
    '/users/:user',
    '/users/:user/edit',
    '/users/add',
    '/logger',
    '/api-tokens',
    '/status-pages',
    '/status-pages/create',
    '/status-pages/:statusPage',
];
const resolve = (route: string) => route.replace(/:(\w+)/, (_, name: string) => String(ids[name]));

beforeAll(async () => {
    server = await startConsole();
    const call = await api(server.url, 'admin', ADMIN_PASSWORD);
    const company = await call('POST', '/companies', { name: 'Axe Co', is_active: true });
    const user = await call('POST', '/users', {
        username: 'reader',
        is_active: true,
        is_admin: false,
        is_super_admin: false,
        company_id: company.id,
        raw_password: 'reader-password',
    });
    const cfg = await call('POST', '/configurations', {
        name: 'Hub mainnet',
        chain: 'cosmoshub',
        is_enabled: true,
        company_id: company.id,
    });
    const srv = await call('POST', '/servers', {
        name: 'hub-validator',
        address: 'https://hub.example.com',
        is_enabled: true,
        configuration_id: cfg.id,
    });
    const monitor = await call('POST', '/monitors', {
        name: 'Block production',
        type: 'blockCheck',
        is_enabled: true,
        configuration_id: cfg.id,
        server_id: srv.id,
        configuration_object: JSON.stringify({ sleep_duration_seconds: 30 }),
    });
    await call('POST', '/notification-channels', {
        name: 'Ops chat',
        type: 'telegram',
        configuration_object: { bot_token: '123:abc', chat_id: '42' },
        is_enabled: true,
        company_id: company.id,
    });
    const statusPage = await call('POST', '/status-pages', {
        company_id: company.id,
        slug: 'hub',
        title: 'Hub validator',
        monitor_ids: [monitor.id],
    });
    ids = {
        configuration: cfg.id,
        server: srv.id,
        monitor: monitor.id,
        company: company.id,
        user: user.id,
        statusPage: statusPage.id,
    };
    browser = await openBrowser();
    page = browser.page;
});
afterAll(async () => {
    await browser?.close();
    await server?.stop();
});

/** What axe finds on the page as it is now: `rule (impact): target…` lines, none when it passes. */
async function violations(route: string): Promise<string[]> {
    const options: RunOptions = {
        runOnly: { type: 'tag', values: WCAG },
        // WCAG 2.1's 2.5.3 (a name that contains the visible label) is an experimental rule, enabled beside the tags,
        // as are the best practices for a page's outline: one main landmark, an h1, headings in order.
        rules: {
            'label-content-name-mismatch': { enabled: true },
            'landmark-one-main': { enabled: true },
            // react-admin's own list and form pages (status pages, the add and edit forms) carry their title in the
            // app bar alone.
            'page-has-heading-one': { enabled: !/\/(add|edit|create)$|^\/status-pages/.test(route) },
            'heading-order': { enabled: true },
        },
    };
    const result = await runAxe(page, options);
    return result.violations.map(
        (v) => `${route} ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`
    );
}

/** Opens a route and waits until react-admin has drawn it (its loading indicator gone, the page title set). */
async function visit(route: string): Promise<void> {
    await page.goto(`${server.url}${route}`);
    await page.locator('#main-content').waitFor();
    await page.waitForLoadState('networkidle');
    // A detail page draws its heading once its record is in; a page without one is what axe reports.
    await page
        .locator('h1')
        .first()
        .waitFor({ timeout: 5_000 })
        .catch(() => {});
    // Colours mid-transition (a status chip turning green) are neither the old nor the new ones axe should judge.
    await page
        .waitForFunction(
            () =>
                document
                    .getAnimations()
                    .every(
                        (a) =>
                            a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY
                    ),
            undefined,
            { timeout: 5_000 }
        )
        .catch(() => {});
    // react-admin's "Please wait" may still show for a moment on a busy machine; axe reads the page once drawn.
    await page.getByText('Please wait').waitFor({ state: 'detached' });
}

/** The innermost elements reaching past the viewport's right edge, to name what widens a page. */
function widest(): Promise<string> {
    return page.evaluate(() => {
        const past = (e: Element) => e.getBoundingClientRect().right > window.innerWidth + 1;
        return [...document.querySelectorAll('body *')]
            .filter((e) => past(e) && ![...e.children].some(past))
            .slice(0, 3)
            .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].slice(0, 2).join('.')}`)
            .join(', ');
    });
}

describe('accessibility', () => {
    describe.each(['light', 'dark'])('in the %s theme', (theme) => {
        beforeAll(async () => {
            await page.goto(`${server.url}/login`);
            await page.evaluate((t) => {
                localStorage.removeItem('securityTokens');
                localStorage.setItem('RaStore.theme', JSON.stringify(t));
            }, theme);
        });

        it('finds no WCAG 2.1 A/AA violation on the login page', async () => {
            await page.goto(`${server.url}/login`);
            await page.getByRole('button', { name: 'Sign in' }).waitFor();
            expect(await violations('/login')).toEqual([]);
        });

        describe('signed in', () => {
            beforeAll(() => signIn(page, server.url, 'admin', ADMIN_PASSWORD));

            it.each(ROUTES)('finds no WCAG 2.1 A/AA violation on %s', async (route) => {
                await visit(resolve(route));
                expect(await violations(route)).toEqual([]);
            });
        });
    });

    it('lets every route fit 390 px without a horizontal page scroll', async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        const wide: string[] = [];
        for (const route of ROUTES.map(resolve)) {
            await visit(route);
            const overflow = await page.evaluate(
                () => document.documentElement.scrollWidth - document.documentElement.clientWidth
            );
            if (overflow > 0) wide.push(`${route} is ${overflow} px too wide: ${await widest()}`);
        }
        await page.setViewportSize({ width: 1440, height: 900 });
        expect(wide).toEqual([]);
    });

    it('opens the menu, a dialog and closes it with the keyboard', async () => {
        await visit('/notification-channels');
        const add = page.getByRole('button', { name: 'Add Channel' });
        await add.focus();
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: 'Add Notification Channel' });
        await dialog.waitFor();
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
        await page.getByRole('menuitem', { name: 'Audit' }).focus();
        await page.keyboard.press('Enter');
        await page.waitForURL(`${server.url}/audit`);
    });

    describe("reaches a monitor's page with Tab and Enter", () => {
        beforeAll(() => signIn(page, server.url, 'admin', ADMIN_PASSWORD));

        it.each([
            ['configuration', '/configurations/:configuration'],
            ['server', '/servers/:server'],
        ])("from the %s page's Monitors table", async (_, route) => {
            await visit(resolve(route));
            const link = page.getByRole('table', { name: 'Monitors' }).getByRole('link', { name: 'Block production' });
            await link.waitFor();
            const focusedHref = () => page.evaluate(() => document.activeElement?.getAttribute('href') ?? '');
            let presses = 0;
            while ((await focusedHref()) !== `/monitor/${ids.monitor}` && presses < 80) {
                await page.keyboard.press('Tab');
                presses += 1;
            }
            expect(await focusedHref()).toBe(`/monitor/${ids.monitor}`);
            await page.keyboard.press('Enter');
            await page.waitForURL(`${server.url}/monitor/${ids.monitor}`);
            await page.getByRole('heading', { level: 1, name: 'Block production' }).waitFor();
        });
    });

    it("reaches a table row's actions with Tab alone and works them with Enter", async () => {
        await visit(resolve('/configurations/:configuration'));
        await page.getByRole('table', { name: 'Servers' }).waitFor();
        const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
        let presses = 0;
        while ((await focused()) !== 'Edit server hub-validator' && presses < 80) {
            await page.keyboard.press('Tab');
            presses += 1;
        }
        expect(await focused()).toBe('Edit server hub-validator');
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: 'Edit Server' });
        await dialog.waitFor();
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
    });
});
