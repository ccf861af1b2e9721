import type { Page } from 'playwright-core';
import type { Console } from './harness';
import { ADMIN_PASSWORD, api, openBrowser, signIn, startConsole } from './harness';

/** An admin silences a monitor from its page; the silence shows there and on the configuration detail. */
let server: Console;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let monitorId = 0;
let configurationId = 0;
let ops: Awaited<ReturnType<typeof api>>;

beforeAll(async () => {
    server = await startConsole({ ENGINE_ENABLED: 'false' });
    const root = await api(server.url, 'admin', ADMIN_PASSWORD);
    const company = await root('POST', '/companies', {
        name: 'Quiet Co',
        is_active: true,
        allowed_networks: ['127.0.0.0/8'],
    });
    await root('POST', '/users', {
        username: 'ops-admin',
        is_active: true,
        is_admin: true,
        is_super_admin: false,
        company_id: company.id,
        raw_password: 'ops-admin-password',
    });
    ops = await api(server.url, 'ops-admin', 'ops-admin-password');
    configurationId = (await ops('POST', '/configurations', { name: 'Hub', chain: 'cosmoshub', is_enabled: true })).id;
    const node = await ops('POST', '/servers', {
        name: 'hub-1',
        address: 'http://127.0.0.1',
        is_enabled: true,
        configuration_id: configurationId,
    });
    monitorId = (
        await ops('POST', '/monitors', {
            name: 'Status page',
            is_enabled: true,
            configuration_id: configurationId,
            server_id: node.id,
            type: 'urlCheck',
            configuration_object: JSON.stringify({ address: 'http://127.0.0.1:9/' }),
        })
    ).id;
    browser = await openBrowser();
    page = browser.page;
    await signIn(page, server.url, 'ops-admin', 'ops-admin-password');
});
afterAll(async () => {
    await browser?.close();
    await server?.stop();
});

it('silences a monitor from its page with a reason', { timeout: 120_000 }, async () => {
    await page.goto(`${server.url}/monitor/${monitorId}`);
    await page.getByRole('heading', { name: 'Status page', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Silence' }).click();
    const dialog = page.getByRole('dialog', { name: 'Silence "Status page"' });
    await dialog.getByRole('radio', { name: '1 day' }).check();
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Moving the status page');
    await dialog.getByRole('button', { name: 'Silence' }).click();
    await page
        .getByText(/^Silenced "Status page" until /)
        .first()
        .waitFor();
    await page.getByLabel(/^Silenced until .*: Moving the status page$/).waitFor();

    await page.goto(`${server.url}/configurations/${configurationId}`);
    const table = page.getByRole('table', { name: 'Silences' });
    await table.getByText('Monitor Status page').waitFor();
    await table.getByText('Moving the status page').waitFor();
    await table.getByRole('button', { name: 'End silence of Monitor Status page' }).click();
    await page.getByText('Silence ended', { exact: true }).first().waitFor();
    await page.getByText('No silences or maintenance windows').waitFor();
});

it('ends an ongoing maintenance window from the configuration page after a confirmation', {
    timeout: 120_000,
}, async () => {
    const hour = 3600_000;
    await ops('POST', '/maintenance-windows', {
        configuration_id: configurationId,
        starts_at: new Date(Date.now() - hour).toISOString(),
        ends_at: new Date(Date.now() + hour).toISOString(),
        reason: 'Swapping the disk',
    });
    await page.goto(`${server.url}/configurations/${configurationId}`);
    const table = page.getByRole('table', { name: 'Maintenance windows' });
    await table.getByText('Swapping the disk').waitFor();
    await table.getByRole('cell', { name: 'Node health' }).waitFor();
    const end = table.getByRole('button', { name: 'End maintenance window of Configuration Hub' });

    // Cancelled: nothing changes.
    await end.click();
    const confirm = page.getByRole('dialog', { name: 'End maintenance window' });
    await confirm.getByText(/Alerts it held back are sent at once/).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    const windows = () => ops<{ results: { active: boolean }[] }>('GET', '/maintenance-windows');
    expect((await windows()).results.map((w) => w.active)).toEqual([true]);

    await end.click();
    await confirm.getByRole('button', { name: 'End now' }).click();
    await page.getByText('Maintenance window ended', { exact: true }).first().waitFor();
    await page.getByText('No silences or maintenance windows').waitFor();
    expect((await windows()).results).toEqual([]);
});
