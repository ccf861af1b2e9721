import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { storeSession, stubApi, superAdmin } from '../fakeApi';
import { renderApp } from '../renderApp';

const plainUser = { ...superAdmin, id: 3, username: 'viewer', is_admin: false, is_super_admin: false };
const monitor = {
    id: 7,
    name: 'Block height',
    type: 'blockCheck',
    is_enabled: true,
    configuration_id: 2,
    server_id: 3,
    server: { id: 3, name: 'val-1', address: 'http://10.0.0.3' },
    configuration: { id: 2, name: 'Cosmos Hub', chain: 'cosmoshub' },
    configuration_object: JSON.stringify({ miss_tolerance: 20, sleep_duration_seconds: 15 }),
    status: false,
    last_error: 'Node is 12 blocks behind',
    last_check: '2024-05-01T10:00:00.000Z',
};
const history = [
    {
        id: 12,
        configuration: { id: 2, name: 'Cosmos Hub' },
        server: { id: 3, name: 'val-1' },
        monitor: { id: 7, name: 'Block height' },
        created_at: '2024-05-01T10:00:00.000Z',
        message: 'Monitor "Block height" changed to Error: Node is 12 blocks behind',
    },
];

describe('monitor page', () => {
    beforeEach(() => storeSession());

    it('shows type, server, configuration, settings with helper texts, health and its own history', async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/monitors/7': { body: monitor },
            'GET /api/audit/latest': { body: history, headers: { 'Content-Range': 'audit 0-0/1' } },
        });
        renderApp('/monitor/7');
        expect(await screen.findByRole('heading', { name: 'Block height', level: 1 })).toBeInTheDocument();
        expect(screen.getByText('Error')).toBeInTheDocument();
        expect(screen.getByText('Block Check')).toBeInTheDocument();
        expect(screen.getAllByRole('link', { name: 'Cosmos Hub' })[0]).toHaveAttribute('href', '/configurations/2');
        expect(screen.getAllByRole('link', { name: 'val-1' })[0]).toHaveAttribute('href', '/servers/3');
        expect(screen.getByText(new Date(monitor.last_check).toLocaleString())).toBeInTheDocument();
        expect(screen.getByText('Node is 12 blocks behind')).toBeInTheDocument();
        // Stored values, and defaults for the rest, each with its helper text.
        expect(screen.getByText('Miss Tolerance:').parentElement).toHaveTextContent('Miss Tolerance: 20');
        expect(screen.getByText('Miss Tolerance Period (seconds):').parentElement).toHaveTextContent(': 30');
        expect(screen.getByText('Sleep Duration (seconds):').parentElement).toHaveTextContent(': 15');
        expect(screen.getByText('The number of blocks that may be missed before alerting')).toBeInTheDocument();
        expect(screen.getByText('The seconds without a miss after which the counter resets')).toBeInTheDocument();
        expect(screen.getByText('Minutes between alerts')).toBeInTheDocument();

        expect(await screen.findByText(history[0].message)).toBeInTheDocument();
        const auditCall = calls.find((call) => call.path === '/api/audit/latest');
        expect(auditCall?.url).toContain('filter={"monitor_id":7}');
        expect(auditCall?.url).toContain('range=[0,24]');
        expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
        expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    });

    it('edits through the monitor dialog and reloads the page', async () => {
        let current = monitor;
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/monitors/7': () => ({ body: current }),
            'PUT /api/monitors/7': (request) => {
                current = { ...current, ...(request.body as object) };
                return { body: current };
            },
            'GET /api/configurations/2/servers': { body: [{ id: 3, name: 'val-1' }] },
            'GET /api/audit/latest': { body: [] },
        });
        const user = userEvent.setup();
        renderApp('/monitor/7');
        await user.click(await screen.findByRole('button', { name: 'Edit' }));
        const dialog = await screen.findByRole('dialog');
        expect(within(dialog).getByText('Edit Monitor')).toBeInTheDocument();
        const name = within(dialog).getByLabelText(/^Name/);
        await user.clear(name);
        await user.type(name, 'Block lag');
        await user.click(within(dialog).getByRole('button', { name: 'Save' }));
        expect(await screen.findByText('Updated monitor successfully')).toBeInTheDocument();
        expect(await screen.findByRole('heading', { name: 'Block lag', level: 1 })).toBeInTheDocument();
        expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
            name: 'Block lag',
            type: 'blockCheck',
        });
    });

    it('deletes after confirmation', async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/monitors/7': { body: monitor },
            'DELETE /api/monitors/7': { body: monitor },
            'GET /api/audit/latest': { body: [] },
        });
        const user = userEvent.setup();
        renderApp('/monitor/7');
        await user.click(await screen.findByRole('button', { name: 'Delete' }));
        expect(
            await screen.findByText(
                'Are you sure you want to delete the monitor "Block height"? This action cannot be undone.'
            )
        ).toBeInTheDocument();
        await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
        expect(await screen.findByText('Monitor deleted successfully')).toBeInTheDocument();
        expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/monitors/7')).toBe(true);
    });

    it('hides Edit and Delete from read-only users', async () => {
        stubApi({
            'GET /api/users/me': { body: plainUser },
            'GET /api/monitors/7': { body: { ...monitor, status: true, last_error: null, last_check: null } },
            'GET /api/audit/latest': { body: [] },
        });
        renderApp('/monitor/7');
        expect(await screen.findByRole('heading', { name: 'Block height', level: 1 })).toBeInTheDocument();
        expect(screen.getByText('Healthy')).toBeInTheDocument();
        expect(screen.getByText('Never')).toBeInTheDocument();
        expect(await screen.findByText('No history for this monitor yet')).toBeInTheDocument();
        await waitFor(() => expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument());
        expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    });

    it('shows each location’s latest result and latency for a monitor checked from several', async () => {
        const at = '2024-05-01T10:00:00.000Z';
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/monitors/7': {
                body: {
                    ...monitor,
                    status: true,
                    last_error: 'Node unreachable; down from fra-1, up from local',
                    locations: ['local', 'fra-1'],
                    confirm: 2,
                    location_results: [
                        { location: 'local', level: 'ok', message: null, latency_ms: 12.4, checked_at: at },
                        {
                            location: 'fra-1',
                            level: 'error',
                            message: 'Node unreachable',
                            latency_ms: 40,
                            checked_at: at,
                        },
                    ],
                },
            },
            'GET /api/audit/latest': { body: [] },
        });
        renderApp('/monitor/7');
        const table = await screen.findByRole('table', { name: 'Latest result per location' });
        const rows = within(table).getAllByRole('row');
        expect(rows[1]).toHaveTextContent('localHealthy12 ms');
        expect(rows[2]).toHaveTextContent('fra-1Error40 msNode unreachable');
        expect(screen.getByText('Error when 2 of 2 locations see a failure')).toBeInTheDocument();
        expect(screen.getByText('Locations:').parentElement).toHaveTextContent('local, fra-1; Error when 2 agree');
    });

    it('shows no location table for a monitor checked from one place', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/monitors/7': { body: { ...monitor, locations: null, confirm: 1 } },
            'GET /api/audit/latest': { body: [] },
        });
        renderApp('/monitor/7');
        expect(await screen.findByRole('heading', { name: 'Block height', level: 1 })).toBeInTheDocument();
        expect(screen.queryByRole('table', { name: 'Latest result per location' })).not.toBeInTheDocument();
        expect(screen.queryByText('Locations:')).not.toBeInTheDocument();
    });

    it("shows 'Monitor not found' for an unknown id", async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/monitors/99': { status: 404, body: { message: 'Monitor not found' } },
        });
        renderApp('/monitor/99');
        expect(await screen.findByRole('heading', { name: 'Monitor not found' })).toBeInTheDocument();
    });
});
