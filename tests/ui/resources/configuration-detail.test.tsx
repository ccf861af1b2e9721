import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { storeSession, stubApi, superAdmin } from '../fakeApi';
import { renderApp } from '../renderApp';
import { admin, configuration, monitor, plainUser, server } from './configurationFixtures';

const failing = monitor({ id: 2, name: 'block check', type: 'blockCheck', status: false, last_check: null });
const warn = monitor({ id: 3, name: 'disk', type: 'nodeExporterDiskSpace', last_error: 'slow' });
const node1 = server({ monitors: [monitor(), failing] });
const node2 = server({ id: 11, name: 'node-2', address: 'http://10.0.0.2', is_enabled: false, monitors: [warn] });
const config = configuration({ servers: [node1, node2], monitors: [monitor(), failing, warn] });
const telegram = { id: 5, type: 'telegram', name: 'Ops chat', is_enabled: true };
const pager = { id: 6, type: 'telegram', name: 'Pager', is_enabled: false };
const link = { id: 40, configuration_id: 1, notification_channel_id: 5, notification_channel: telegram };

function routes(user: object, overrides: Record<string, unknown> = {}) {
    return {
        'GET /api/users/me': { body: user },
        'GET /api/configurations/1': { body: config },
        'GET /api/configurations/1/servers': { body: config.servers },
        'GET /api/configurations/1/monitors': { body: config.monitors },
        'GET /api/configurations/1/notification-channels': { body: [link] },
        'GET /api/notification-channels': { body: [telegram, pager] },
        'GET /api/configurations': { body: [config] },
        'GET /api/companies': { body: { results: [{ id: 1, name: 'Acme' }] } },
        ...overrides,
    } as Parameters<typeof stubApi>[0];
}

const table = (name: string) => screen.getByRole('table', { name });

describe('configuration detail', () => {
    beforeEach(() => storeSession());

    it("toasts 'Failed to fetch configuration data!' when the configuration cannot be loaded", async () => {
        stubApi(routes(superAdmin, { 'GET /api/configurations/1': { status: 404, body: { message: 'Not found' } } }));
        renderApp('/configurations/1');
        expect(await screen.findByText('Failed to fetch configuration data!')).toBeInTheDocument();
    });

    it('shows the header, details, servers, monitors and channels', async () => {
        stubApi(routes(superAdmin));
        renderApp('/configurations/1');
        expect(await screen.findByRole('heading', { name: 'Osmosis main', level: 1 })).toBeInTheDocument();
        expect(screen.getByText('osmosis')).toBeInTheDocument();
        expect(await screen.findByText('2 servers')).toBeInTheDocument();
        expect(screen.getByText('3 monitors')).toBeInTheDocument();
        expect(screen.getAllByText('Error (1)').length).toBeGreaterThan(0);
        expect(screen.getByRole('button', { name: 'Edit configuration' })).toBeInTheDocument();
        expect(screen.getByRole('button', { name: 'Delete configuration' })).toBeInTheDocument();

        expect(screen.getByText('Status:').parentElement).toHaveTextContent('Status: Enabled');
        expect(screen.getByText('Company:').parentElement).toHaveTextContent('Company: Acme');
        expect(screen.getByText('Created At:')).toBeInTheDocument();
        expect(screen.getByText('Last Updated:')).toBeInTheDocument();

        const servers = table('Servers');
        expect(within(servers).getByRole('link', { name: 'node-1' })).toHaveAttribute('href', '/servers/10');
        const address = within(servers).getByRole('link', { name: 'http://10.0.0.2' });
        expect(address).toHaveAttribute('href', 'http://10.0.0.2');
        expect(address).toHaveAttribute('target', '_blank');
        expect(address.getAttribute('rel')).toContain('noopener');
        const node1Row = within(servers).getByRole('link', { name: 'node-1' }).closest('tr') as HTMLElement;
        expect(within(node1Row).getByText('Error (1)')).toBeInTheDocument();
        const node2Row = within(servers).getByRole('link', { name: 'node-2' }).closest('tr') as HTMLElement;
        expect(within(node2Row).getByText('Warning (1)')).toBeInTheDocument();
        expect(within(node2Row).getByText('Inactive')).toBeInTheDocument();
        expect(within(servers).getByRole('link', { name: 'View server node-1' })).toHaveAttribute(
            'href',
            '/servers/10'
        );

        const monitors = table('Monitors');
        const blockRow = within(monitors).getByText('block check').closest('tr') as HTMLElement;
        expect(within(blockRow).getByText('Block Check')).toBeInTheDocument();
        expect(within(blockRow).getByText('Error')).toBeInTheDocument();
        expect(within(blockRow).getByText('Never')).toBeInTheDocument();
        expect(within(blockRow).getByText('node-1')).toBeInTheDocument();
        const diskRow = within(monitors).getByText('disk').closest('tr') as HTMLElement;
        expect(within(diskRow).getByText('Warning')).toBeInTheDocument();
        const urlRow = within(monitors).getByText('rpc check').closest('tr') as HTMLElement;
        expect(within(urlRow).getByText('Healthy')).toBeInTheDocument();

        const channels = await screen.findByRole('table', { name: 'Linked notification channels' });
        expect(await within(channels).findByText('Ops chat')).toBeInTheDocument();
        expect(within(channels).getByText('telegram')).toBeInTheDocument();
        expect(within(channels).getByRole('button', { name: 'Remove Ops chat' })).toBeInTheDocument();
        expect(screen.getByRole('button', { name: 'Add Channel' })).toBeDisabled();
    });

    it('filters monitors by status', async () => {
        stubApi(routes(superAdmin));
        const user = userEvent.setup();
        renderApp('/configurations/1');
        await screen.findByRole('table', { name: 'Monitors' });
        await user.click(screen.getByRole('combobox', { name: 'Status' }));
        await user.click(await screen.findByRole('option', { name: 'Warning' }));
        const monitors = table('Monitors');
        expect(within(monitors).getByText('disk')).toBeInTheDocument();
        expect(within(monitors).queryByText('block check')).not.toBeInTheDocument();
        expect(within(monitors).queryByText('rpc check')).not.toBeInTheDocument();
    });

    it('shows the empty states and No Company', async () => {
        const empty = configuration({ company: null, servers: [], monitors: [] });
        stubApi(
            routes(superAdmin, {
                'GET /api/configurations/1': { body: empty },
                'GET /api/configurations/1/servers': { body: [] },
                'GET /api/configurations/1/monitors': { body: [] },
                'GET /api/configurations/1/notification-channels': { body: [] },
            })
        );
        renderApp('/configurations/1');
        expect(await screen.findByText('No servers configured yet')).toBeInTheDocument();
        expect(screen.getByText('No monitors configured yet')).toBeInTheDocument();
        expect(screen.getByText('Company:').parentElement).toHaveTextContent('Company: No Company');
        expect(screen.getByText('Healthy')).toBeInTheDocument();
        // The channels panel has no empty text in the spec, only its columns: they stay, over an empty row.
        const channels = await screen.findByRole('table', { name: 'Linked notification channels' });
        expect(
            within(channels)
                .getAllByRole('columnheader')
                .map((h) => h.textContent)
        ).toEqual(['Id', 'Type', 'Name', 'Enabled', 'Actions']);
        expect(within(channels).getByText('No notification channels linked yet')).toBeInTheDocument();
    });

    it('hides every write control from a plain user', async () => {
        stubApi(routes(plainUser));
        renderApp('/configurations/1');
        await screen.findByRole('heading', { name: 'Osmosis main', level: 1 });
        await screen.findByRole('table', { name: 'Servers' });
        expect(await screen.findByText('Ops chat')).toBeInTheDocument();
        for (const name of [
            'Edit configuration',
            'Delete configuration',
            'Add Server',
            'Add Monitor',
            'Add Channel',
            'Edit server node-1',
            'Delete server node-1',
            'Edit monitor rpc check',
            'Delete monitor rpc check',
            'Remove Ops chat',
        ]) {
            expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
        }
        expect(screen.queryByLabelText('Notification Channels')).not.toBeInTheDocument();
        expect(screen.getByRole('link', { name: 'View server node-1' })).toBeInTheDocument();
    });

    it('deletes the configuration after confirmation and returns to the list', async () => {
        stubApi(routes(admin, { 'DELETE /api/configurations/1': { body: config } }));
        const user = userEvent.setup();
        renderApp('/configurations/1');
        await user.click(await screen.findByRole('button', { name: 'Delete configuration' }));
        expect(
            await screen.findByText(
                'Are you sure you want to delete the configuration "Osmosis main"? This action cannot be undone.'
            )
        ).toBeInTheDocument();
        await user.click(screen.getByRole('button', { name: 'Delete' }));
        expect(await screen.findByText('Configuration deleted successfully')).toBeInTheDocument();
        expect(await screen.findByRole('heading', { name: 'Node Configurations', level: 1 })).toBeInTheDocument();
    });

    it('edits the configuration from the header', async () => {
        const { calls } = stubApi(
            routes(admin, {
                'GET /api/chains': { body: [] },
                'PUT /api/configurations/1': { body: config },
            })
        );
        const user = userEvent.setup();
        renderApp('/configurations/1');
        await user.click(await screen.findByRole('button', { name: 'Edit configuration' }));
        const dialog = await screen.findByRole('dialog');
        await user.click(within(dialog).getByRole('switch', { name: 'Enabled' }));
        await user.click(within(dialog).getByRole('button', { name: 'Save' }));
        expect(await screen.findByText('Configuration updated successfully')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
            name: 'Osmosis main',
            chain: 'osmosis',
            is_enabled: false,
        });
    });

    it('adds and edits servers with their toasts', async () => {
        let fail = false;
        const { calls } = stubApi(
            routes(admin, {
                'POST /api/servers': () =>
                    fail
                        ? {
                              status: 400,
                              body: { message: 'Invalid', errors: { address: 'Address must be an http(s) URL' } },
                          }
                        : { status: 201, body: server({ id: 12, name: 'node-3' }) },
                'PUT /api/servers/10': { body: node1 },
            })
        );
        const user = userEvent.setup();
        renderApp('/configurations/1');
        await user.click(await screen.findByRole('button', { name: 'Add Server' }));
        let dialog = await screen.findByRole('dialog');
        expect(within(dialog).getByRole('switch', { name: 'Is Enabled' })).toBeChecked();
        await user.type(within(dialog).getByLabelText('Name'), 'node-3');
        await user.type(within(dialog).getByLabelText('Address'), 'http://10.0.0.3');
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Added server successfully!')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
            name: 'node-3',
            address: 'http://10.0.0.3',
            is_enabled: true,
            configuration_id: 1,
        });
        await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

        fail = true;
        await user.click(screen.getByRole('button', { name: 'Add Server' }));
        dialog = await screen.findByRole('dialog');
        await user.type(within(dialog).getByLabelText('Name'), 'bad');
        await user.type(within(dialog).getByLabelText('Address'), 'ftp://x');
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to add server. Invalid');
        expect(await within(dialog).findByText('Address must be an http(s) URL')).toBeInTheDocument();
        await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
        await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

        await user.click(screen.getByRole('button', { name: 'Edit server node-1' }));
        dialog = await screen.findByRole('dialog');
        expect(within(dialog).getByLabelText('Address')).toHaveValue('http://10.0.0.1');
        await user.click(within(dialog).getByRole('button', { name: 'Save' }));
        expect(await screen.findByText('Edited server successfully!')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
            name: 'node-1',
            address: 'http://10.0.0.1',
            is_enabled: true,
            configuration_id: 1,
        });
    });

    it('reports a failed server edit and deletes servers after confirmation', async () => {
        stubApi(
            routes(admin, {
                'PUT /api/servers/10': { status: 500, body: { message: 'boom' } },
                'DELETE /api/servers/10': { body: node1 },
                'DELETE /api/servers/11': { status: 409, body: { message: 'busy' } },
            })
        );
        const user = userEvent.setup();
        renderApp('/configurations/1');
        await user.click(await screen.findByRole('button', { name: 'Edit server node-1' }));
        await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Save' }));
        expect(await within(screen.getByRole('dialog')).findByRole('alert')).toHaveTextContent(
            'Failed to edit server. boom'
        );
        await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
        await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

        await user.click(screen.getByRole('button', { name: 'Delete server node-1' }));
        expect(
            await screen.findByText(
                'Are you sure you want to delete the server "node-1"? This action cannot be undone.'
            )
        ).toBeInTheDocument();
        await user.click(screen.getByRole('button', { name: 'Delete' }));
        expect(await screen.findByText('Server deleted successfully')).toBeInTheDocument();

        await user.click(await screen.findByRole('button', { name: 'Delete server node-2' }));
        await user.click(await screen.findByRole('button', { name: 'Delete' }));
        expect(await screen.findByText('Failed to delete server')).toBeInTheDocument();
    });

    it("shows 'Invalid server ID' for a server without an id", async () => {
        const noId = server({ id: 0, name: 'ghost' });
        const { calls } = stubApi(routes(admin, { 'GET /api/configurations/1/servers': { body: [noId] } }));
        const user = userEvent.setup();
        renderApp('/configurations/1');
        await user.click(await screen.findByRole('button', { name: 'Delete server ghost' }));
        await user.click(await screen.findByRole('button', { name: 'Delete' }));
        expect(await screen.findByText('Invalid server ID')).toBeInTheDocument();
        expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    });

    it('deletes monitors after confirmation', async () => {
        stubApi(
            routes(admin, {
                'DELETE /api/monitors/1': { body: monitor() },
                'DELETE /api/monitors/2': { status: 500, body: { message: 'boom' } },
            })
        );
        const user = userEvent.setup();
        renderApp('/configurations/1');
        await user.click(await screen.findByRole('button', { name: 'Delete monitor rpc check' }));
        expect(
            await screen.findByText(
                'Are you sure you want to delete the monitor "rpc check"? This action cannot be undone.'
            )
        ).toBeInTheDocument();
        await user.click(screen.getByRole('button', { name: 'Delete' }));
        expect(await screen.findByText('Monitor deleted successfully')).toBeInTheDocument();
        await user.click(await screen.findByRole('button', { name: 'Delete monitor block check' }));
        await user.click(await screen.findByRole('button', { name: 'Delete' }));
        expect(await screen.findByText('Failed to delete monitor')).toBeInTheDocument();
    });

    it("toasts 'Failed to fetch notification channels' when the linked channels cannot be loaded", async () => {
        stubApi(
            routes(admin, {
                'GET /api/configurations/1/notification-channels': { status: 500, body: { message: 'boom' } },
            })
        );
        renderApp('/configurations/1');
        expect(await screen.findByText('Failed to fetch notification channels')).toBeInTheDocument();
        expect(screen.getByText('No notification channels linked yet')).toBeInTheDocument();
    });

    it('associates and removes notification channels', async () => {
        let links = [link];
        let failAdd = false;
        let failRemove = false;
        const { calls } = stubApi(
            routes(admin, {
                'GET /api/configurations/1/notification-channels': () => ({ body: links }),
                'POST /api/configurations/1/notification-channels': () => {
                    if (failAdd) return { status: 500, body: { message: 'boom' } };
                    links = [...links, { ...link, id: 41, notification_channel_id: 6, notification_channel: pager }];
                    return { status: 201, body: links[1] };
                },
                'DELETE /api/configurations/1/notification-channels/40': () => {
                    if (failRemove) return { status: 500, body: { message: 'boom' } };
                    links = links.filter((l) => l.id !== 40);
                    return { body: link };
                },
            })
        );
        const user = userEvent.setup();
        renderApp('/configurations/1');
        const select = await screen.findByRole('combobox', { name: 'Notification Channels' });
        expect(select).toHaveAttribute('placeholder', 'Select a notification channel');
        const addButton = screen.getByRole('button', { name: 'Add Channel' });
        expect(addButton).toBeDisabled();
        await user.click(select);
        // The already linked channel is not offered again.
        expect(screen.queryByRole('option', { name: /Ops chat/ })).not.toBeInTheDocument();
        failAdd = true;
        await user.click(await screen.findByRole('option', { name: /Pager/ }));
        expect(addButton).toBeEnabled();
        await user.click(addButton);
        expect(await screen.findByText('Failed to associate notification channel')).toBeInTheDocument();

        failAdd = false;
        await user.click(addButton);
        expect(await screen.findByText('Successfully associated notification channel')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
            configuration_id: 1,
            notification_channel_id: 6,
        });
        expect(await screen.findByRole('button', { name: 'Remove Pager' })).toBeInTheDocument();
        await waitFor(() => expect(screen.getByRole('button', { name: 'Add Channel' })).toBeDisabled());

        failRemove = true;
        await user.click(screen.getByRole('button', { name: 'Remove Ops chat' }));
        expect(await screen.findByText('Error when deleting notification channel')).toBeInTheDocument();
        failRemove = false;
        await user.click(screen.getByRole('button', { name: 'Remove Ops chat' }));
        expect(await screen.findByText('Notification channel removed successfully')).toBeInTheDocument();
        await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove Ops chat' })).not.toBeInTheDocument());
    });
});
