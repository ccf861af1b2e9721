import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';

import { type FakeHandler, type RecordedRequest, storeSession, stubApi, superAdmin } from '../fakeApi';
import { renderApp } from '../renderApp';

const admin = { ...superAdmin, id: 2, username: 'ops', is_super_admin: false };
const reader = { ...admin, id: 3, username: 'viewer', is_admin: false };

const GB = 1024 ** 3;
const server = {
    id: 7,
    name: 'validator-1',
    address: 'http://10.0.0.5',
    is_enabled: true,
    configuration_id: 3,
    configuration: { id: 3, name: 'Cosmos Hub', chain: 'cosmoshub' },
    monitors: [],
    createdAt: '2024-03-01T10:00:00.000Z',
    updatedAt: null,
};
const rpc = { id: 11, name: 'rpc', type: 'rpc', address: 'http://10.0.0.5:26657', is_enabled: true, server_id: 7 };
const exporter = {
    id: 12,
    name: 'node_exporter',
    type: 'node_exporter',
    address: 'http://10.0.0.5:9100/metrics',
    is_enabled: false,
    server_id: 7,
};
const urlMonitor = {
    id: 21,
    name: 'rpc',
    type: 'urlCheck',
    is_enabled: true,
    configuration_id: 3,
    server_id: 7,
    server: { id: 7, name: 'validator-1', address: 'http://10.0.0.5' },
    configuration_object: JSON.stringify({ name: 'rpc', address: rpc.address, allowed_attempts: 3 }),
    status: true,
    last_error: null,
    last_check: null,
};
const metrics = {
    usedDiskSpace: GB,
    totalDiskSpace: 2 * GB,
    usedDiskSpacePercentage: 42,
    memoryUsage: 512 * 1024 ** 2,
    totalMemory: 4 * GB,
    memoryUsagePercentage: 12.5,
    mountpoint: '/',
};

function routes(overrides: Record<string, FakeHandler | 'network'> = {}) {
    return {
        'GET /api/users/me': { body: admin },
        'GET /api/servers/7': { body: server },
        'GET /api/servers/7/services': { body: [rpc, exporter] },
        'GET /api/servers/7/monitors': { body: [urlMonitor] },
        'GET /api/servers/7/metrics': { body: metrics },
        'GET /api/configurations/3/servers': { body: [server, { ...server, id: 8, name: 'sentry-1' }] },
        ...overrides,
    };
}

const posts = (calls: RecordedRequest[], path: string) =>
    calls.filter((c) => c.method === 'POST' && c.path === path).map((c) => c.body);

async function openAddService(user: ReturnType<typeof userEvent.setup>) {
    await user.click(await screen.findByRole('button', { name: 'Add Service' }));
    return screen.findByRole('dialog', { name: 'Add Service' });
}

async function chooseType(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, type: string) {
    await user.click(within(dialog).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: type }));
}

describe('server detail', () => {
    beforeEach(() => storeSession());

    it('shows the header, details, metrics, services and monitors', async () => {
        stubApi(routes());
        renderApp('/servers/7');
        expect(await screen.findByRole('heading', { name: 'validator-1', level: 1 })).toBeInTheDocument();
        expect(screen.getAllByRole('link', { name: /http:\/\/10\.0\.0\.5$/ })[0]).toHaveAttribute(
            'href',
            'http://10.0.0.5'
        );
        expect(await screen.findByText('1 monitor')).toBeInTheDocument();
        expect(await screen.findByRole('button', { name: 'Edit Server' })).toBeInTheDocument();

        expect(screen.getByText('Server Details')).toBeInTheDocument();
        expect(screen.getByText('Status:').parentElement).toHaveTextContent('Status: Enabled');
        expect(screen.getByRole('link', { name: 'Cosmos Hub' })).toHaveAttribute('href', '/configurations/3');
        expect(screen.getByText('Created At:').parentElement).toHaveTextContent(
            new Date(server.createdAt).toLocaleString()
        );
        expect(screen.getByText('Last Updated:').parentElement).toHaveTextContent('Last Updated: N/A');

        expect(screen.getByText('System Metrics')).toBeInTheDocument();
        expect(await screen.findByText('42% (1.00 GB / 2.00 GB)')).toBeInTheDocument();
        expect(screen.getByText('13% (512.00 MB / 4.00 GB)')).toBeInTheDocument();

        const services = screen.getByRole('table', { name: 'Services' });
        for (const header of ['Name', 'Type', 'Address', 'Status', 'Actions']) {
            expect(within(services).getByRole('columnheader', { name: header })).toBeInTheDocument();
        }
        expect(within(services).getByRole('link', { name: exporter.address })).toHaveAttribute('target', '_blank');
        expect(within(services).getByText('Disabled')).toBeInTheDocument();
        expect(within(services).getByRole('button', { name: 'Edit service rpc' })).toBeInTheDocument();
        expect(within(services).getByRole('button', { name: 'Test endpoint rpc' })).toBeInTheDocument();
        expect(within(services).getByRole('button', { name: 'Delete service rpc' })).toBeInTheDocument();

        const monitors = screen.getByRole('table', { name: 'Monitors' });
        expect(within(monitors).getByText('URL Check')).toBeInTheDocument();
        expect(within(monitors).getByText('Healthy')).toBeInTheDocument();
        expect(screen.getByRole('button', { name: 'Add Monitor' })).toBeInTheDocument();
    });

    it('shows the empty services and monitors', async () => {
        stubApi(routes({ 'GET /api/servers/7/services': { body: [] }, 'GET /api/servers/7/monitors': { body: [] } }));
        renderApp('/servers/7');
        expect(await screen.findByText('No services configured yet')).toBeInTheDocument();
        expect(await screen.findByText('No monitors configured yet')).toBeInTheDocument();
        expect(screen.getByText('0 monitors')).toBeInTheDocument();
    });

    it("toasts 'Failed to fetch server data' when the server is not visible", async () => {
        stubApi(routes({ 'GET /api/servers/7': { status: 404, body: { message: 'Server not found' } } }));
        renderApp('/servers/7');
        expect(await screen.findByText('Failed to fetch server data')).toBeInTheDocument();
        expect(screen.getByRole('heading', { name: 'Server not found' })).toBeInTheDocument();
    });

    it("toasts 'Failed to fetch server monitors'", async () => {
        stubApi(routes({ 'GET /api/servers/7/monitors': { status: 500, body: { message: 'boom' } } }));
        renderApp('/servers/7');
        expect(await screen.findByText('Failed to fetch server monitors')).toBeInTheDocument();
    });

    it("shows a failed metrics call with the server's message, and Retry reloads it", async () => {
        let fail = true;
        const message = 'node_exporter service http://10.0.0.5:9100/metrics could not be reached';
        stubApi(
            routes({
                'GET /api/servers/7/metrics': () => (fail ? { status: 502, body: { message } } : { body: metrics }),
            })
        );
        const user = userEvent.setup();
        renderApp('/servers/7');
        expect(await screen.findByText('Failed to load metrics')).toBeInTheDocument();
        expect(screen.getByText(message)).toBeInTheDocument();
        fail = false;
        await user.click(screen.getByRole('button', { name: 'Retry' }));
        expect(await screen.findByText('42% (1.00 GB / 2.00 GB)')).toBeInTheDocument();
        expect(screen.queryByText('Failed to load metrics')).not.toBeInTheDocument();
    });

    it('tells of a server without node_exporter in a neutral note, not as a failure', async () => {
        const message = 'This server has no enabled node_exporter service; add one to see its metrics';
        stubApi(routes({ 'GET /api/servers/7/metrics': { status: 404, body: { message } } }));
        renderApp('/servers/7');
        expect(await screen.findByText('No node_exporter metrics')).toBeInTheDocument();
        expect(screen.getByText(message)).toBeInTheDocument();
        expect(screen.queryByText('Failed to load metrics')).not.toBeInTheDocument();
    });

    it('refreshes the metrics every 30 seconds', async () => {
        vi.useFakeTimers({ shouldAdvanceTime: true });
        try {
            let used = 42;
            const { calls } = stubApi(
                routes({
                    'GET /api/servers/7/metrics': () => ({ body: { ...metrics, usedDiskSpacePercentage: used } }),
                })
            );
            renderApp('/servers/7');
            expect(await screen.findByText('42% (1.00 GB / 2.00 GB)')).toBeInTheDocument();
            const before = calls.filter((c) => c.path === '/api/servers/7/metrics').length;
            used = 55;
            await vi.advanceTimersByTimeAsync(29_000);
            expect(calls.filter((c) => c.path === '/api/servers/7/metrics')).toHaveLength(before);
            await vi.advanceTimersByTimeAsync(1_500);
            expect(await screen.findByText('55% (1.00 GB / 2.00 GB)')).toBeInTheDocument();
            expect(calls.filter((c) => c.path === '/api/servers/7/metrics')).toHaveLength(before + 1);
        } finally {
            vi.useRealTimers();
        }
    });

    it('adds an rpc service with its defaults and one URL-check monitor', async () => {
        const { calls } = stubApi(
            routes({
                'POST /api/services': (request) => ({ status: 201, body: { ...(request.body as object), id: 30 } }),
                'POST /api/monitors': (request) => ({ status: 201, body: { ...(request.body as object), id: 40 } }),
            })
        );
        const user = userEvent.setup();
        renderApp('/servers/7');
        const dialog = await openAddService(user);
        expect(within(dialog).getByLabelText('Name')).toHaveValue('rpc');
        expect(within(dialog).getByRole('combobox', { name: 'Type' })).toHaveTextContent('rpc');
        expect(within(dialog).getByLabelText('Address')).toHaveValue('http://10.0.0.5:26657');
        expect(within(dialog).getByRole('switch', { name: 'Is Enabled' })).toBeChecked();
        expect(within(dialog).getByRole('switch', { name: 'Create Monitor?' })).toBeChecked();
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));

        expect(await screen.findByText('Added service successfully!')).toBeInTheDocument();
        expect(await screen.findByText('Added monitor successfully')).toBeInTheDocument();
        expect(posts(calls, '/api/services')).toEqual([
            { name: 'rpc', type: 'rpc', address: 'http://10.0.0.5:26657', is_enabled: true, server_id: 7 },
        ]);
        expect(posts(calls, '/api/monitors')).toEqual([
            {
                name: 'rpc',
                is_enabled: true,
                configuration_id: 3,
                server_id: 7,
                type: 'urlCheck',
                configuration_object: JSON.stringify({
                    name: 'rpc',
                    address: 'http://10.0.0.5:26657',
                    allowed_attempts: 3,
                }),
                // Linked to the new service: it follows its address and goes with it.
                service_id: 30,
            },
        ]);
        await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });

    it('follows the type with name and address, and adds a node_exporter with two monitors', async () => {
        const { calls } = stubApi(
            routes({
                'POST /api/services': (request) => ({ status: 201, body: { ...(request.body as object), id: 30 } }),
                'POST /api/monitors': (request) => ({ status: 201, body: { ...(request.body as object), id: 40 } }),
            })
        );
        const user = userEvent.setup();
        renderApp('/servers/7');
        const dialog = await openAddService(user);
        const expected = {
            rest: 'http://10.0.0.5:1317',
            prometheus: 'http://10.0.0.5:26660/metrics',
            node_exporter: 'http://10.0.0.5:9100/metrics',
        };
        for (const [type, address] of Object.entries(expected)) {
            await chooseType(user, dialog, type);
            expect(within(dialog).getByLabelText('Name')).toHaveValue(type);
            expect(within(dialog).getByLabelText('Address')).toHaveValue(address);
        }
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Added service successfully!')).toBeInTheDocument();
        await waitFor(() => expect(posts(calls, '/api/monitors')).toHaveLength(2));
        expect(posts(calls, '/api/services')[0]).toMatchObject({
            name: 'node_exporter',
            type: 'node_exporter',
            address: 'http://10.0.0.5:9100/metrics',
        });
        const [urlCheck, disk] = posts(calls, '/api/monitors') as Record<string, unknown>[];
        expect(urlCheck).toMatchObject({ name: 'node_exporter', type: 'urlCheck', server_id: 7, configuration_id: 3 });
        expect(JSON.parse(urlCheck.configuration_object as string)).toEqual({
            name: 'node_exporter',
            address: 'http://10.0.0.5:9100/metrics',
            allowed_attempts: 3,
        });
        expect(disk).toMatchObject({ type: 'nodeExporterDiskSpace', server_id: 7, configuration_id: 3 });
        expect(JSON.parse(disk.configuration_object as string)).toEqual({
            threshold: 80,
            alert_sleep_duration_minutes: 30,
            check_interval_seconds: 60,
        });
    });

    it('keeps a typed name and address when the type changes, and creates no monitor when switched off', async () => {
        const { calls } = stubApi(
            routes({
                'POST /api/services': (request) => ({ status: 201, body: { ...(request.body as object), id: 30 } }),
            })
        );
        const user = userEvent.setup();
        renderApp('/servers/7');
        const dialog = await openAddService(user);
        await user.clear(within(dialog).getByLabelText('Address'));
        await user.type(within(dialog).getByLabelText('Address'), 'https://rpc.example.com');
        await user.clear(within(dialog).getByLabelText('Name'));
        await user.type(within(dialog).getByLabelText('Name'), 'public rpc');
        await chooseType(user, dialog, 'rest');
        expect(within(dialog).getByLabelText('Name')).toHaveValue('public rpc');
        expect(within(dialog).getByLabelText('Address')).toHaveValue('https://rpc.example.com');
        await user.click(within(dialog).getByRole('switch', { name: 'Is Enabled' }));
        await user.click(within(dialog).getByRole('switch', { name: 'Create Monitor?' }));
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Added service successfully!')).toBeInTheDocument();
        expect(posts(calls, '/api/services')).toEqual([
            { name: 'public rpc', type: 'rest', address: 'https://rpc.example.com', is_enabled: false, server_id: 7 },
        ]);
        expect(posts(calls, '/api/monitors')).toEqual([]);
    });

    it("shows the server's field errors when adding fails", async () => {
        stubApi(
            routes({
                'POST /api/services': {
                    status: 400,
                    body: { message: 'Invalid service', errors: { address: 'Address must be an http(s) URL' } },
                },
            })
        );
        const user = userEvent.setup();
        renderApp('/servers/7');
        const dialog = await openAddService(user);
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Failed to add service. Invalid service')).toBeInTheDocument();
        expect(within(dialog).getByText('Address must be an http(s) URL')).toBeInTheDocument();
    });

    it('edits a service without the Create Monitor switch', async () => {
        const { calls } = stubApi(
            routes({ 'PUT /api/services/11': (request) => ({ body: { ...rpc, ...(request.body as object) } }) })
        );
        const user = userEvent.setup();
        renderApp('/servers/7');
        await user.click(await screen.findByRole('button', { name: 'Edit service rpc' }));
        const dialog = await screen.findByRole('dialog', { name: 'Edit Service' });
        expect(within(dialog).queryByRole('switch', { name: 'Create Monitor?' })).not.toBeInTheDocument();
        expect(within(dialog).getByLabelText('Address')).toHaveValue(rpc.address);
        await user.clear(within(dialog).getByLabelText('Name'));
        await user.type(within(dialog).getByLabelText('Name'), 'rpc main');
        await user.click(within(dialog).getByRole('button', { name: 'Save' }));
        expect(await screen.findByText('Edited service successfully!')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
            name: 'rpc main',
            type: 'rpc',
            address: rpc.address,
            is_enabled: true,
            server_id: 7,
        });
        expect(posts(calls, '/api/monitors')).toEqual([]);
    });

    it('deletes a service after confirmation, and toasts a failure', async () => {
        let fail = false;
        stubApi(
            routes({
                'DELETE /api/services/11': () => (fail ? { status: 500, body: { message: 'boom' } } : { body: rpc }),
            })
        );
        const user = userEvent.setup();
        renderApp('/servers/7');
        await user.click(await screen.findByRole('button', { name: 'Delete service rpc' }));
        expect(
            await screen.findByText('Are you sure you want to delete the service "rpc"? This action cannot be undone.')
        ).toBeInTheDocument();
        await user.click(screen.getByRole('button', { name: 'Delete' }));
        expect(await screen.findByText('Service deleted successfully')).toBeInTheDocument();
        fail = true;
        await user.click(await screen.findByRole('button', { name: 'Delete service rpc' }));
        await user.click(await screen.findByRole('button', { name: 'Delete' }));
        expect(await screen.findByText('Failed to delete service')).toBeInTheDocument();
    });

    it('names the monitors a service delete removes or leaves without a data source', async () => {
        stubApi(
            routes({
                'GET /api/services/11/dependents': {
                    body: {
                        removed: [{ id: 21, name: 'rpc', type: 'urlCheck' }],
                        losing_data_source: [{ id: 22, name: 'blocks', type: 'blockCheck' }],
                    },
                },
            })
        );
        const user = userEvent.setup();
        renderApp('/servers/7');
        await user.click(await screen.findByRole('button', { name: 'Delete service rpc' }));
        const dialog = await screen.findByRole('dialog');
        expect(
            within(dialog).getByText('Are you sure you want to delete the service "rpc"? This action cannot be undone.')
        ).toBeInTheDocument();
        expect(
            await within(dialog).findByText('Monitors created with this service will be deleted too: "rpc".')
        ).toBeInTheDocument();
        expect(
            within(dialog).getByText('These monitors read through this service and will fail without it: "blocks".')
        ).toBeInTheDocument();
    });

    it("shows the API's reason for a failed endpoint test", async () => {
        stubApi(
            routes({
                'GET /api/services/12/test': {
                    status: 502,
                    body: { message: 'node_exporter did not answer: refused the connection' },
                },
            })
        );
        const user = userEvent.setup();
        renderApp('/servers/7');
        await user.click(await screen.findByRole('button', { name: 'Test endpoint node_exporter' }));
        const dialog = await screen.findByRole('dialog', { name: 'Test Endpoint: node_exporter' });
        expect(
            await within(dialog).findByText(
                'Attempt 1/4: failed - node_exporter did not answer: refused the connection'
            )
        ).toBeInTheDocument();
    });

    it('tests an endpoint up to 4 times, 1 second apart, with a running log', async () => {
        const times: number[] = [];
        stubApi(
            routes({
                'GET /api/services/12/test': () => {
                    times.push(Date.now());
                    return { status: 502, body: { message: 'node_exporter did not answer' } };
                },
            })
        );
        const user = userEvent.setup();
        renderApp('/servers/7');
        await user.click(await screen.findByRole('button', { name: 'Test endpoint node_exporter' }));
        const dialog = await screen.findByRole('dialog', { name: 'Test Endpoint: node_exporter' });
        const log = within(dialog).getByRole('log');
        expect(await within(log).findByText('Attempt 1/4: failed - node_exporter did not answer')).toBeInTheDocument();
        expect(within(log).queryByText(/Attempt 2/)).not.toBeInTheDocument();
        expect(
            await within(dialog).findByText('Endpoint test failed after 4 attempts', {}, { timeout: 8000 })
        ).toBeInTheDocument();
        expect(within(log).getAllByText(/^Attempt \d\/4: failed - node_exporter did not answer$/)).toHaveLength(4);
        expect(times).toHaveLength(4);
        for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(950);
        await user.click(within(dialog).getByRole('button', { name: 'Close' }));
        await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });

    it('stops testing at the first HTTP 200', async () => {
        let answers = [502, 200];
        const { calls } = stubApi(
            routes({
                'GET /api/services/11/test': () => {
                    const [status, ...rest] = answers;
                    answers = rest;
                    return { status, body: '' };
                },
            })
        );
        const user = userEvent.setup();
        renderApp('/servers/7');
        await user.click(await screen.findByRole('button', { name: 'Test endpoint rpc' }));
        const dialog = await screen.findByRole('dialog', { name: 'Test Endpoint: rpc' });
        expect(await within(dialog).findByText('Endpoint is reachable')).toBeInTheDocument();
        const log = within(dialog).getByRole('log');
        expect(log).toHaveTextContent('Attempt 1/4: HTTP 502 - failed');
        expect(log).toHaveTextContent('Attempt 2/4: HTTP 200 - success');
        await new Promise((resolve) => setTimeout(resolve, 1200));
        expect(calls.filter((c) => c.path === '/api/services/11/test')).toHaveLength(2);
    });

    it('edits the server in the shared server dialog', async () => {
        const { calls } = stubApi(
            routes({ 'PUT /api/servers/7': (request) => ({ body: { ...server, ...(request.body as object) } }) })
        );
        const user = userEvent.setup();
        renderApp('/servers/7');
        await user.click(await screen.findByRole('button', { name: 'Edit Server' }));
        const dialog = await screen.findByRole('dialog', { name: 'Edit Server' });
        expect(within(dialog).getByLabelText('Name')).toHaveValue('validator-1');
        await user.click(within(dialog).getByRole('button', { name: 'Save' }));
        expect(await screen.findByText('Edited server successfully!')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
            name: 'validator-1',
            address: 'http://10.0.0.5',
            is_enabled: true,
            configuration_id: 3,
        });
    });

    it('adds a monitor with this server preselected', async () => {
        stubApi(routes());
        const user = userEvent.setup();
        renderApp('/servers/7');
        await user.click(await screen.findByRole('button', { name: 'Add Monitor' }));
        const monitorDialog = await screen.findByRole('dialog', { name: 'Add Monitor' });
        expect(within(monitorDialog).getByRole('combobox', { name: 'Server' })).toHaveTextContent('validator-1');
    });

    it('shows read-only users no add, edit or delete controls, but lets them test endpoints', async () => {
        stubApi(routes({ 'GET /api/users/me': { body: reader } }));
        renderApp('/servers/7');
        expect(await screen.findByRole('button', { name: 'Test endpoint rpc' })).toBeInTheDocument();
        expect(await screen.findByText('URL Check')).toBeInTheDocument();
        expect(screen.queryByRole('button', { name: 'Add Service' })).not.toBeInTheDocument();
        expect(screen.queryByRole('button', { name: 'Edit Server' })).not.toBeInTheDocument();
        expect(screen.queryByRole('button', { name: 'Add Monitor' })).not.toBeInTheDocument();
        expect(screen.queryByRole('button', { name: /Delete service/ })).not.toBeInTheDocument();
        expect(screen.queryByRole('button', { name: /Edit monitor/ })).not.toBeInTheDocument();
    });
});
