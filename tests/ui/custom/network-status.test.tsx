import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { storeSession, stubApi, superAdmin } from '../fakeApi';
import { renderApp } from '../renderApp';

const GB = 1024 ** 3;
const server = (id: number, name: string) => ({ id, name, address: `http://10.0.0.${id}`, is_enabled: true });
const hub = { id: 1, name: 'Cosmos Hub', chain: 'cosmoshub', is_enabled: true, servers: [server(3, 'val-1')] };
const osmo = {
    id: 2,
    name: 'Osmosis',
    chain: 'osmosis',
    is_enabled: true,
    servers: [server(4, 'osmo-1'), server(5, 'osmo-2')],
};
const metrics3 = {
    usedDiskSpace: 1 * GB,
    totalDiskSpace: 2 * GB,
    usedDiskSpacePercentage: 42,
    memoryUsage: 512 * 1024 ** 2,
    totalMemory: 4 * GB,
    memoryUsagePercentage: 12.5,
    mountpoint: '/',
};

const rowOf = (serverName: string) => {
    const row = screen.getByRole('link', { name: serverName }).closest('tr');
    if (!row) throw new Error(`no row for ${serverName}`);
    return within(row);
};

describe('network status', () => {
    beforeEach(() => storeSession());

    it('shows disk and memory per server, N/A for missing values and a per-cell error', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': { body: [osmo, hub] },
            'GET /api/servers/3/metrics': { body: metrics3 },
            'GET /api/servers/4/metrics': { body: { ...metrics3, memoryUsagePercentage: null } },
            'GET /api/servers/5/metrics': { status: 502, body: { message: 'node_exporter unreachable' } },
            'GET /api/servers/3/node': {
                body: {
                    height: 1204331,
                    latest_block_time: new Date().toISOString(),
                    block_lag_seconds: 4,
                    peers: 12,
                    catching_up: false,
                },
            },
            'GET /api/servers/4/node': {
                body: {
                    height: 1204300,
                    latest_block_time: null,
                    block_lag_seconds: 250,
                    peers: 1,
                    catching_up: true,
                },
            },
            'GET /api/servers/5/node': {
                status: 404,
                body: { message: 'This server has no enabled rpc service; add one to see its node' },
            },
        });
        renderApp('/network-status');
        expect(await screen.findByRole('heading', { name: 'Network Status', level: 1 })).toBeInTheDocument();
        expect(screen.getByText('Monitor system resources across all nodes')).toBeInTheDocument();
        const headers = (await screen.findAllByRole('columnheader')).map((cell) => cell.textContent);
        // The spec's columns in their order, with the days-until-full projection beside Disk Usage, and the node
        // (height, block lag, peers, sync) after them.
        expect(headers).toEqual(['Configuration', 'Server', 'Disk Usage', 'Days until full', 'Memory Usage', 'Node']);
        await waitFor(() =>
            expect(
                rowOf('val-1').getByText('Height 1,204,331 · last block 4 s ago · 12 peers · synced')
            ).toBeInTheDocument()
        );
        await waitFor(() =>
            expect(
                rowOf('osmo-1').getByText('Height 1,204,300 · last block 4 min ago · 1 peer · catching up')
            ).toBeInTheDocument()
        );
        await waitFor(() => expect(rowOf('osmo-2').getByText(/no enabled rpc service/)).toBeInTheDocument());

        await waitFor(() => expect(rowOf('val-1').getByText('42% (1.00 GB / 2.00 GB)')).toBeInTheDocument());
        expect(rowOf('val-1').getByText('13% (512.00 MB / 4.00 GB)')).toBeInTheDocument();
        expect(rowOf('val-1').getByRole('link', { name: 'Cosmos Hub' })).toHaveAttribute('href', '/configurations/1');
        await waitFor(() => expect(rowOf('osmo-1').getByText('N/A')).toBeInTheDocument());
        await waitFor(() => expect(rowOf('osmo-2').getAllByText('node_exporter unreachable')).toHaveLength(2));
        expect(rowOf('val-1').queryByText('node_exporter unreachable')).not.toBeInTheDocument();
        // Sorted by configuration name.
        const servers = screen.getAllByRole('row').slice(1);
        expect(servers.map((row) => within(row).getAllByRole('link')[1].textContent)).toEqual([
            'val-1',
            'osmo-1',
            'osmo-2',
        ]);
    });

    it('shows when each disk will be full, "Not growing" when flat, and no projection when none was sent', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': { body: [osmo, hub] },
            'GET /api/servers/3/metrics': { body: { ...metrics3, days_until_full: 12.4 } },
            'GET /api/servers/4/metrics': { body: { ...metrics3, days_until_full: null } },
            'GET /api/servers/5/metrics': { body: metrics3 },
        });
        renderApp('/network-status');
        const daysOf = async (serverName: string) => {
            await waitFor(() => expect(rowOf(serverName).getAllByRole('cell')[2].textContent).not.toBe(''));
            return rowOf(serverName).getAllByRole('cell')[3].textContent;
        };
        await screen.findByRole('link', { name: 'val-1' });
        await waitFor(() => expect(rowOf('val-1').getByText('Full in 12 days')).toBeInTheDocument());
        expect(await daysOf('val-1')).toBe('Full in 12 days');
        expect(await daysOf('osmo-1')).toBe('Not growing');
        expect(await daysOf('osmo-2')).toBe('No projection');
    });

    it('lists the monitors checked from several locations below the servers, with each location’s latest result', async () => {
        const at = new Date().toISOString();
        const monitor = (id: number, name: string, server_id: number | null) => ({ id, name, server_id, server: null });
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': {
                body: [
                    { ...hub, monitors: [monitor(9, 'Block production', 3), monitor(10, 'Block height', 3)] },
                    { ...osmo, monitors: [monitor(11, 'Jail budget', null)] },
                ],
            },
            'GET /api/servers/3/metrics': { body: metrics3 },
            'GET /api/monitors/location-results': {
                body: {
                    results: [
                        {
                            monitor_id: 9,
                            location_results: [
                                { location: 'local', level: 'ok', message: null, latency_ms: 12.4, checked_at: at },
                                {
                                    location: 'fra-1',
                                    level: 'error',
                                    message: 'Unreachable',
                                    latency_ms: 40,
                                    checked_at: at,
                                },
                                {
                                    location: 'sgp-1',
                                    level: 'none',
                                    message: 'No answer in time',
                                    latency_ms: null,
                                    checked_at: at,
                                },
                            ],
                        },
                        {
                            monitor_id: 11,
                            location_results: [
                                {
                                    location: 'local',
                                    level: 'warning',
                                    message: 'Slow',
                                    latency_ms: 900,
                                    checked_at: at,
                                },
                                { location: 'fra-1', level: 'ok', message: null, latency_ms: 30, checked_at: at },
                            ],
                        },
                    ],
                },
            },
        });
        renderApp('/network-status');
        expect(await screen.findByRole('heading', { name: 'Probe locations', level: 2 })).toBeInTheDocument();
        const listed = within(screen.getByRole('list', { name: 'Monitors checked from several locations' }));
        // Only the monitors several locations check; each names its configuration and, when it has one, its server.
        const items = listed
            .getAllByRole('listitem')
            .filter(
                (item) => item.parentElement?.getAttribute('aria-label') === 'Monitors checked from several locations'
            );
        expect(items.map((item) => item.querySelector('p')?.textContent)).toEqual([
            'Block production · Cosmos Hub · val-1',
            'Jail budget · Osmosis',
        ]);
        expect(listed.getByRole('link', { name: 'Block production' })).toHaveAttribute('href', '/monitor/9');
        const chips = (name: string) =>
            within(screen.getByRole('list', { name: `Locations checking ${name}` }))
                .getAllByRole('listitem')
                .map((item) => item.textContent);
        expect(chips('Block production')).toEqual([
            'local · Healthy · 12 ms',
            'fra-1 · Error · 40 ms',
            'sgp-1 · No answer',
        ]);
        expect(chips('Jail budget')).toEqual(['local · Warning · 900 ms', 'fra-1 · Healthy · 30 ms']);
        expect(calls.filter((call) => call.path === '/api/monitors/location-results')).toHaveLength(1);
    });

    it('shows no locations part where every monitor is checked from one place, or the results cannot be read', async () => {
        for (const reply of [{ body: { results: [] } }, { status: 500, body: { message: 'Database unavailable' } }]) {
            const { calls } = stubApi({
                'GET /api/users/me': { body: superAdmin },
                'GET /api/configurations': { body: [hub] },
                'GET /api/servers/3/metrics': { body: metrics3 },
                'GET /api/monitors/location-results': reply,
            });
            const { unmount } = renderApp('/network-status');
            expect(await screen.findByText('42% (1.00 GB / 2.00 GB)')).toBeInTheDocument();
            await waitFor(() =>
                expect(calls.some((call) => call.path === '/api/monitors/location-results')).toBe(true)
            );
            expect(screen.queryByRole('heading', { name: 'Probe locations' })).not.toBeInTheDocument();
            unmount();
        }
    });

    it('shows the empty state when no configuration has servers', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': { body: [{ ...hub, servers: [] }] },
        });
        renderApp('/network-status');
        expect(await screen.findByText('No metrics available')).toBeInTheDocument();
        expect(screen.getByText('Add servers to your configurations to start monitoring metrics')).toBeInTheDocument();
    });

    it("shows 'Failed to load metrics' with the message, and Retry loads again", async () => {
        let fail = true;
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': () =>
                fail ? { status: 500, body: { message: 'Database unavailable' } } : { body: [hub] },
            'GET /api/servers/3/metrics': { body: metrics3 },
        });
        const user = userEvent.setup();
        renderApp('/network-status');
        expect(await screen.findByText('Failed to load metrics')).toBeInTheDocument();
        expect(screen.getByText('Database unavailable')).toBeInTheDocument();
        fail = false;
        await user.click(screen.getByRole('button', { name: 'Retry' }));
        expect(await screen.findByText('42% (1.00 GB / 2.00 GB)')).toBeInTheDocument();
        expect(screen.queryByText('Failed to load metrics')).not.toBeInTheDocument();
    });

    it('refreshes the metrics every 30 s', async () => {
        vi.useFakeTimers({ shouldAdvanceTime: true });
        try {
            let percent = 42;
            const { calls } = stubApi({
                'GET /api/users/me': { body: superAdmin },
                'GET /api/configurations': { body: [hub] },
                'GET /api/servers/3/metrics': () => ({ body: { ...metrics3, usedDiskSpacePercentage: percent } }),
            });
            renderApp('/network-status');
            expect(await screen.findByText('42% (1.00 GB / 2.00 GB)')).toBeInTheDocument();
            const metricsCalls = () => calls.filter((call) => call.path === '/api/servers/3/metrics').length;
            const before = metricsCalls();
            percent = 55;
            await act(() => vi.advanceTimersByTimeAsync(30_500));
            expect(await screen.findByText('55% (1.00 GB / 2.00 GB)')).toBeInTheDocument();
            expect(metricsCalls()).toBe(before + 1);
        } finally {
            vi.useRealTimers();
        }
    });
});
