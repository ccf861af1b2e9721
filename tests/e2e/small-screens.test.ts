import type { Locator, Page } from 'playwright-core';
import type { Console } from './harness';
import { ADMIN_PASSWORD, api, openBrowser, signIn, startConsole } from './harness';

/**
 * Layouts a browser lays out, at a laptop's 1440 px and a phone's 390 px: the dashboard's message within reach on a
 * phone, and the channel routing controls of a configuration whole, their labels not cut.
 */
let server: Console;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let call: Awaited<ReturnType<typeof api>>;
let configurationId: number;

beforeAll(async () => {
    server = await startConsole();
    call = await api(server.url, 'admin', ADMIN_PASSWORD);
    // A URL check on a closed loopback port fails at its first check: the company's allowed networks open loopback.
    const company = await call('POST', '/companies', {
        name: 'Small Co',
        is_active: true,
        allowed_networks: ['127.0.0.0/8'],
    });
    ({ id: configurationId } = await call('POST', '/configurations', {
        name: 'Hub mainnet',
        chain: 'cosmoshub',
        is_enabled: true,
        company_id: company.id,
    }));
    const srv = await call('POST', '/servers', {
        name: 'hub-validator',
        address: 'http://127.0.0.1',
        is_enabled: true,
        configuration_id: configurationId,
    });
    await call('POST', '/monitors', {
        name: 'Status page',
        type: 'urlCheck',
        is_enabled: true,
        configuration_id: configurationId,
        server_id: srv.id,
        configuration_object: JSON.stringify({ address: 'http://127.0.0.1:9/', allowed_attempts: 0 }),
    });
    const channel = await call('POST', '/notification-channels', {
        name: 'Ops chat',
        type: 'telegram',
        configuration_object: JSON.stringify({ bot_token: '123:abc', chat_id: '42' }),
        is_enabled: true,
        company_id: company.id,
    });
    await call('POST', `/configurations/${configurationId}/notification-channels`, {
        configuration_id: configurationId,
        notification_channel_id: channel.id,
    });
    browser = await openBrowser();
    page = browser.page;
    await signIn(page, server.url, 'admin', ADMIN_PASSWORD);
});
afterAll(async () => {
    await browser?.close();
    await server?.stop();
});

/** Whether the element shows all of its text: not cut by an ellipsis, and inside the window from edge to edge. */
const whole = (element: Locator) =>
    element.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return el.scrollWidth <= el.clientWidth && box.left >= 0 && box.right <= window.innerWidth && box.width > 0;
    });

describe('on a phone (390 px)', () => {
    beforeAll(() => page.setViewportSize({ width: 390, height: 844 }));
    afterAll(() => page.setViewportSize({ width: 1440, height: 900 }));

    it("shows a failing monitor's message first on the dashboard, within the screen", async () => {
        let failed: { name: string; last_error: string | null }[] = [];
        for (let tries = 0; !failed[0]?.last_error && tries < 60; tries++) {
            await new Promise((resolve) => setTimeout(resolve, 1000));
            failed = await call<typeof failed>('GET', '/monitors/failed');
        }
        const message = failed[0]?.last_error;
        expect(message).toBeTruthy();
        await page.goto(`${server.url}/`);
        await page.getByRole('tab', { name: 'Critical Issues (1)' }).waitFor();
        // The message's element: the cell, or the line, that also holds the incident's link.
        const text = page.getByText(message ?? '');
        await text.waitFor();
        expect(await whole(text)).toBe(true);
        const name = page.getByRole('link', { name: 'Status page', exact: true });
        const [messageBox, nameBox] = [await text.boundingBox(), await name.boundingBox()];
        expect(messageBox && nameBox && messageBox.y < nameBox.y).toBe(true);
        expect(await page.getByRole('link', { name: 'View server hub-validator' }).isVisible()).toBe(true);
    });
});

describe.each([
    [1440, 900],
    [390, 844],
])('at %i px', (width, height) => {
    beforeAll(() => page.setViewportSize({ width, height }));

    it("shows a channel link's routing controls on the configuration page with their labels whole", async () => {
        await page.goto(`${server.url}/configurations/${configurationId}`);
        const table = page.getByRole('table', { name: 'Linked notification channels' });
        const delay = table.getByRole('spinbutton', { name: 'Escalate to Ops chat after minutes' });
        await delay.scrollIntoViewIfNeeded();
        expect(await whole(table.locator('label', { hasText: 'Escalate after (min)' }))).toBe(true);
        expect(await whole(table.locator('label', { hasText: 'Sends' }))).toBe(true);
        const sends = table.getByRole('combobox', { name: /^Sends/ });
        await sends.scrollIntoViewIfNeeded();
        expect(await sends.textContent()).toBe('Errors');
        expect(await whole(sends)).toBe(true);
        await table.getByRole('button', { name: 'Remove Ops chat' }).scrollIntoViewIfNeeded();
        expect(await whole(table.getByRole('button', { name: 'Remove Ops chat' }))).toBe(true);
    });
});
