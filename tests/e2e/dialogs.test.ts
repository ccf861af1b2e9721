import type { Locator, Page } from 'playwright-core';
import type { Console } from './harness';
import { ADMIN_PASSWORD, api, openBrowser, signIn, startConsole } from './harness';

/**
 * A long refusal on a phone: the dialog's own refusal shows inside the dialog, a toast never covers the dialog's
 * buttons, and a toast that appears under the resting pointer still hides on its timer.
 */
let server: Console;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let configurationId: number;

const LONG = `The server refused this for a reason that takes a while to tell: ${'every word of it matters. '.repeat(30)}`;

beforeAll(async () => {
    server = await startConsole({ ENGINE_ENABLED: 'false' });
    const call = await api(server.url, 'admin', ADMIN_PASSWORD);
    const company = await call('POST', '/companies', { name: 'Dialog Co', is_active: true });
    ({ id: configurationId } = await call('POST', '/configurations', {
        name: 'Hub mainnet',
        chain: 'cosmoshub',
        is_enabled: true,
        company_id: company.id,
    }));
    browser = await openBrowser();
    page = browser.page;
    await signIn(page, server.url, 'admin', ADMIN_PASSWORD);
    await page.setViewportSize({ width: 390, height: 844 });
});
afterAll(async () => {
    await browser?.close();
    await server?.stop();
});

const refuse = (path: string) =>
    page.route(`**/api${path}`, (route) =>
        route.request().method() === 'POST'
            ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ message: LONG }) })
            : route.fallback()
    );

/** What a click at the middle of `button` would reach: the button itself, or what lies on top of it. */
const hit = async (button: Locator) => {
    await button.scrollIntoViewIfNeeded();
    return button.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return top !== null && el.contains(top);
    });
};

describe('dialogs with a long refusal', () => {
    it("shows the save's refusal inside the dialog, its buttons still within reach", async () => {
        await refuse('/servers');
        await page.goto(`${server.url}/configurations/${configurationId}`);
        await page.getByRole('button', { name: 'Add Server' }).click();
        const dialog = page.getByRole('dialog', { name: 'Add Server' });
        await dialog.getByRole('textbox', { name: 'Name' }).fill('hub-validator');
        await dialog.getByRole('textbox', { name: 'Address' }).fill('https://hub.example.com');
        const add = dialog.getByRole('button', { name: 'Add' });
        await add.click();
        await dialog
            .getByRole('alert')
            .filter({ hasText: `Failed to add server. ${LONG.trim()}` })
            .waitFor();
        expect(await hit(add)).toBe(true);
        expect(await hit(dialog.getByRole('button', { name: 'Cancel' }))).toBe(true);
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'hidden' });
        await page.unroute('**/api/servers');
    });

    it('lets the pointer through a long toast to the buttons below, and hides it on time under a resting pointer', async () => {
        await refuse('/notification-channels/test');
        await page.goto(`${server.url}/notification-channels`);
        await page.getByRole('button', { name: 'Add Channel' }).click();
        const dialog = page.getByRole('dialog', { name: 'Add Notification Channel' });
        await dialog.getByRole('textbox', { name: 'Name' }).fill('Ops hook');
        await dialog.getByRole('combobox', { name: 'Type' }).click();
        await page.getByRole('option', { name: 'webhook', exact: true }).click();
        await dialog.getByRole('textbox', { name: /^URL/ }).fill('https://hooks.example.com/in');
        await dialog.getByRole('textbox', { name: /^Secret/ }).fill('hook-secret');
        const test = dialog.getByRole('button', { name: 'Test' });
        await test.click();
        const toast = page.getByText(`Failed to test notification channel! ${LONG.trim()}`);
        await toast.waitFor();
        for (const name of ['Cancel', 'Test', 'Add'])
            expect(await hit(dialog.getByRole('button', { name }))).toBe(true);
        // The pointer has stayed where the click left it; the toast still goes after its 5 s.
        await toast.waitFor({ state: 'hidden', timeout: 10_000 });
    });
});
