import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { answers, type Receiver, startReceiver } from '../support/fake-receivers';
import type { Console } from './harness';
import { ADMIN_PASSWORD, api, openBrowser, signIn, startConsole } from './harness';

/** Issue 11 in the browser: an admin adds a webhook channel through the channel dialog, tests it and saves it. */
let server: Console;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let hook: Receiver;

beforeAll(async () => {
    hook = await startReceiver(answers.discordOk);
    server = await startConsole({ ENGINE_ENABLED: 'false' });
    const root = await api(server.url, 'admin', ADMIN_PASSWORD);
    const company = await root('POST', '/companies', {
        name: 'Hooks Co',
        is_active: true,
        // The webhook receiver listens on loopback.
        allowed_networks: ['127.0.0.0/8'],
    });
    await root('POST', '/users', {
        username: 'hook-admin',
        is_active: true,
        is_admin: true,
        is_super_admin: false,
        company_id: company.id,
        raw_password: 'hook-admin-password',
    });
    browser = await openBrowser();
    page = browser.page;
    await signIn(page, server.url, 'hook-admin', 'hook-admin-password');
});
afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await hook?.close();
});

const toast = (text: string) => page.getByText(text, { exact: true }).first().waitFor();
const dialog = () => page.getByRole('dialog');

it('adds a webhook channel from the catalogue-built dialog: a signed test arrives, the secret is masked after', async () => {
    await page.goto(`${server.url}/notification-channels`);
    await page.getByText('No notification channels configured').waitFor();
    await page.getByRole('button', { name: 'Add Channel' }).click();
    await dialog().getByRole('textbox', { name: 'Name' }).fill('Ops hook');
    await dialog().getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'webhook' }).click();
    // A URL that is not http(s): the API's 400 shows under the field.
    await dialog().getByRole('textbox', { name: 'URL (url)' }).fill('ftp://127.0.0.1/in');
    await dialog().getByRole('textbox', { name: 'Secret (secret)' }).fill('browser-secret');
    await dialog().getByRole('button', { name: 'Add' }).click();
    await dialog().getByText('URL must be an http(s) URL').waitFor();

    await dialog().getByRole('textbox', { name: 'URL (url)' }).fill(`${hook.url}/in`);
    await dialog().getByRole('textbox', { name: 'Headers (headers)' }).fill('{"X-Team": "ops"}');
    await dialog().getByRole('button', { name: 'Test' }).click();
    await toast('Notification channel tested successfully!');
    const got = hook.received.at(-1);
    expect(got?.json).toMatchObject({
        version: 1,
        kind: 'test',
        message: 'Test message for notification channel "Ops hook"',
    });
    expect(got?.headers['x-team']).toBe('ops');
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(got?.headers['x-node-monitor-signature'])) ?? [];
    expect(v1).toBe(createHmac('sha256', 'browser-secret').update(`${t}.${got?.raw}`).digest('hex'));

    await dialog().getByRole('button', { name: 'Add' }).click();
    await toast('Notification channel added successfully!');
    await page.getByText('Ops hook').first().waitFor();
    const root = await api(server.url, 'hook-admin', 'hook-admin-password');
    const [saved] = await root<{ type: string; configuration_object: string }[]>('GET', '/notification-channels');
    expect(saved?.type).toBe('webhook');
    const config = JSON.parse(saved?.configuration_object ?? '{}');
    expect(config).toMatchObject({ url: `${hook.url}/in`, headers: { 'X-Team': 'ops' } });
    expect(config.secret).not.toContain('browser-secret');
});
