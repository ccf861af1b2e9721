import type { Page } from 'playwright-core';
import type { Console } from './harness';
import { ADMIN_PASSWORD, api, openBrowser, signIn, startConsole } from './harness';

/** An admin builds a whole configuration from an empty console in the browser, then deletes it. */
let server: Console;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let configurationUrl = '';

beforeAll(async () => {
    server = await startConsole({ ENGINE_ENABLED: 'false' });
    const root = await api(server.url, 'admin', ADMIN_PASSWORD);
    const company = await root('POST', '/companies', {
        name: 'Staking Co',
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
    browser = await openBrowser();
    page = browser.page;
    await signIn(page, server.url, 'ops-admin', 'ops-admin-password');
});
afterAll(async () => {
    await browser?.close();
    await server?.stop();
});

const toast = (text: string) => page.getByText(text, { exact: true }).first().waitFor();
const dialog = () => page.getByRole('dialog');

describe('building a configuration in the browser', () => {
    it('creates a configuration with a chain from the directory', async () => {
        await page.goto(`${server.url}/configurations`);
        await page.getByText('No configurations found').waitFor();
        await page.getByRole('button', { name: 'Add Configuration' }).click();
        await dialog().getByRole('textbox', { name: 'Name' }).fill('Hub validator');
        await dialog().getByRole('combobox', { name: 'Chain' }).fill('cosmoshub');
        await page
            .getByRole('option', { name: /cosmoshub/i })
            .first()
            .click();
        await dialog().getByRole('button', { name: 'Add' }).click();
        await toast('Configuration created successfully');
        await page.getByText('Hub validator').first().click();
        await page.waitForURL(/\/configurations\/\d+$/);
        configurationUrl = page.url();
        await page.getByText('No servers configured yet').waitFor();
    });

    it('adds a server, then rpc and node_exporter services that create three monitors', async () => {
        await page.getByRole('button', { name: 'Add Server' }).click();
        await dialog().getByRole('textbox', { name: 'Name' }).fill('validator-1');
        await dialog().getByRole('textbox', { name: 'Address' }).fill('http://127.0.0.1');
        await dialog().getByRole('button', { name: 'Add' }).click();
        await toast('Added server successfully!');
        await page
            .getByRole('table', { name: 'Servers' })
            .getByRole('link', { name: 'validator-1', exact: true })
            .click();
        await page.waitForURL(/\/servers\/\d+$/);

        await page.getByRole('button', { name: 'Add Service' }).click();
        await dialog().getByRole('textbox', { name: 'Address' }).waitFor();
        expect(await dialog().getByRole('textbox', { name: 'Address' }).inputValue()).toBe('http://127.0.0.1:26657');
        await dialog().getByRole('button', { name: 'Add' }).click();
        await dialog().waitFor({ state: 'detached' });

        await page.getByRole('button', { name: 'Add Service' }).click();
        await dialog().getByRole('combobox', { name: 'Type' }).click();
        await page.getByRole('option', { name: 'node_exporter' }).click();
        expect(await dialog().getByRole('textbox', { name: 'Address' }).inputValue()).toBe(
            'http://127.0.0.1:9100/metrics'
        );
        expect(await dialog().getByRole('textbox', { name: 'Name' }).inputValue()).toBe('node_exporter');
        await dialog().getByRole('button', { name: 'Add' }).click();
        await dialog().waitFor({ state: 'detached' });

        const monitors = page.getByRole('table', { name: 'Monitors' });
        await monitors.getByRole('row').nth(3).waitFor();
        expect(await monitors.getByRole('row').count()).toBe(4);
    });

    it("edits a monitor's settings", async () => {
        const monitors = page.getByRole('table', { name: 'Monitors' });
        await monitors.getByRole('button', { name: /^Edit monitor .*disk/i }).click();
        const threshold = dialog().getByRole('spinbutton', { name: 'Threshold (%)' });
        expect(await threshold.inputValue()).toBe('80');
        await threshold.fill('90');
        await dialog().getByRole('button', { name: 'Save' }).click();
        await toast('Updated monitor successfully');
        const root = await api(server.url, 'ops-admin', 'ops-admin-password');
        const id = configurationUrl.split('/').pop();
        const list = await root<{ type: string; configuration_object: string }[]>(
            'GET',
            `/configurations/${id}/monitors`
        );
        const disk = list.find((m) => m.type === 'nodeExporterDiskSpace');
        expect(JSON.parse(disk?.configuration_object ?? '{}')).toMatchObject({ threshold: 90 });
    });

    it('edits a service, which moves its monitor; a refused service shows one toast with the reason', async () => {
        const services = page.getByRole('table', { name: 'Services' });
        await services.getByRole('button', { name: 'Edit service rpc' }).click();
        await dialog().getByRole('textbox', { name: 'Address' }).fill('http://127.0.0.1:26658');
        await dialog().getByRole('button', { name: 'Save' }).click();
        await toast('Edited service successfully!');
        await services.getByRole('link', { name: 'http://127.0.0.1:26658' }).waitFor();
        const root = await api(server.url, 'ops-admin', 'ops-admin-password');
        const id = configurationUrl.split('/').pop();
        const list = await root<{ type: string; configuration_object: string }[]>(
            'GET',
            `/configurations/${id}/monitors`
        );
        const url = list.find((m) => m.type === 'urlCheck');
        expect(JSON.parse(url?.configuration_object ?? '{}')).toMatchObject({ address: 'http://127.0.0.1:26658' });

        await page.getByRole('button', { name: 'Add Service' }).click();
        await dialog().getByRole('textbox', { name: 'Address' }).fill('ftp://127.0.0.1');
        await dialog().getByRole('button', { name: 'Add' }).click();
        await page
            .getByText(/^Failed to add service\. .+/)
            .first()
            .waitFor();
        expect(await page.getByText(/Failed to add service/).count()).toBe(1);
        expect(await page.getByText(/The form is not valid/).count()).toBe(0);
        await dialog().getByRole('button', { name: 'Cancel' }).click();
        await dialog().waitFor({ state: 'detached' });
    });

    it('deletes a service after naming the monitors that go with it', async () => {
        const services = page.getByRole('table', { name: 'Services' });
        await services.getByRole('button', { name: 'Delete service node_exporter' }).click();
        await dialog()
            .getByText(
                'Monitors created with this service will be deleted too: "node_exporter", "node_exporter disk space".'
            )
            .waitFor();
        await dialog().getByRole('button', { name: 'Delete' }).click();
        await toast('Service deleted successfully');
        const monitors = page.getByRole('table', { name: 'Monitors' });
        // The table refetches after the delete and may be redrawn empty for a moment: wait for the rows left.
        await expect.poll(() => monitors.getByRole('row').count(), { timeout: 10_000 }).toBe(2);
    });

    it('creates a telegram channel and links it to the configuration', async () => {
        await page.goto(`${server.url}/notification-channels`);
        await page.getByText('No notification channels configured').waitFor();
        await page.getByRole('button', { name: 'Add Channel' }).click();
        await dialog().getByRole('textbox', { name: 'Name' }).fill('Ops chat');
        await dialog().getByRole('combobox', { name: 'Type' }).click();
        await page.getByRole('option', { name: /telegram/i }).click();
        await dialog().getByRole('textbox', { name: 'Bot Token' }).fill('123456:ABCdefGhIJKlmNoPQRstuVWXyz');
        await dialog().getByRole('textbox', { name: 'Chat ID' }).fill('-1001234567890');
        await dialog().getByRole('button', { name: 'Add' }).click();
        await toast('Notification channel added successfully!');

        await page.goto(configurationUrl);
        await page.getByRole('combobox', { name: 'Notification Channels' }).click();
        await page.getByRole('option', { name: /Ops chat/ }).click();
        await page.getByRole('button', { name: 'Add Channel' }).click();
        await toast('Successfully associated notification channel');
        await page.getByRole('table', { name: 'Linked notification channels' }).getByText('Ops chat').waitFor();
    });

    it('deletes the configuration and shows the empty state', async () => {
        await page.getByRole('button', { name: 'Delete configuration' }).click();
        await page
            .getByText(
                'Are you sure you want to delete the configuration "Hub validator"? This action cannot be undone.'
            )
            .waitFor();
        await page.getByRole('button', { name: 'Delete' }).click();
        await toast('Configuration deleted successfully');
        await page.waitForURL(/\/configurations$/);
        await page.getByText('No configurations found').waitFor();
        await page.getByText('Start by adding your first node configuration').waitFor();
    });
});
