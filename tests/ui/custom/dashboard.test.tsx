import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { storeSession, stubApi, superAdmin } from '../fakeApi';
import { renderApp } from '../renderApp';

const hub = { id: 2, name: 'Cosmos Hub', chain: 'cosmoshub' };
const val1 = { id: 3, name: 'val-1', address: 'http://10.0.0.3' };
const failing = {
    id: 7,
    name: 'Block height',
    type: 'blockCheck',
    status: false,
    last_error: 'Node is 12 blocks behind',
    last_check: '2024-05-01T10:00:00.000Z',
    server: val1,
    configuration: hub,
};
const failingBare = { ...failing, id: 8, name: 'Sign misses', last_error: null, last_check: null };
const warning = { ...failing, id: 9, name: 'RPC', status: true, last_error: 'Slow response' };
const servers = [3, 4, 5, 6, 7].map((id) => ({ id, name: `srv-${id}`, address: `http://10.0.0.${id}` }));
const storage = (id: number, usedDiskSpacePercentage: number) => ({
    fullest: {
        server: { id, name: `srv-${id}` },
        mountpoint: '/',
        usedDiskSpacePercentage,
        usedDiskSpace: 1,
        totalDiskSpace: 2,
        at: '2024-05-01T10:00:00.000Z',
    },
});

const statValue = (title: string) => screen.getByLabelText(title).textContent;

describe('dashboard', () => {
    beforeEach(() => storeSession());

    it('shows the four stat cards with the spec counts and the fullest disk', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/monitors/failed': { body: [failing, failingBare] },
            'GET /api/monitors/warnings': { body: [warning] },
            'GET /api/servers': { body: servers },
            'GET /api/servers/storage': { body: storage(4, 87.4) },
        });
        renderApp('/');
        await waitFor(() => expect(statValue('Critical Issues')).toBe('2'));
        expect(statValue('Warnings')).toBe('1');
        // Spec §4: servers (5) minus the critical count (2).
        expect(statValue('Healthy Nodes')).toBe('3');
        await waitFor(() => expect(statValue('Storage Usage')).toBe('87%'));
        expect(screen.getByText('Fullest disk: srv-4')).toBeInTheDocument();
    });

    it('lists critical issues with fallbacks and a link to the server, and warnings in the other tab', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/monitors/failed': { body: [failing, failingBare] },
            'GET /api/monitors/warnings': { body: [warning] },
            'GET /api/servers': { body: [] },
            'GET /api/servers/storage': { body: { fullest: null } },
        });
        const user = userEvent.setup();
        renderApp('/');
        expect(await screen.findByText('System Monitoring')).toBeInTheDocument();
        expect(await screen.findByRole('tab', { name: 'Critical Issues (2)' })).toHaveAttribute(
            'aria-selected',
            'true'
        );
        expect(screen.getByRole('tab', { name: 'Warnings (1)' })).toBeInTheDocument();
        const table = await screen.findByRole('table');
        const headers = within(table)
            .getAllByRole('columnheader')
            .map((cell) => cell.textContent);
        expect(headers).toEqual(['Status', 'Configuration', 'Monitor', 'Server', 'Message', 'Last Check', 'Actions']);
        expect(within(table).getByText('Node is 12 blocks behind')).toBeInTheDocument();
        expect(within(table).getByText('No error message')).toBeInTheDocument();
        expect(within(table).getByText('N/A')).toBeInTheDocument();
        expect(within(table).getAllByText('Error')).toHaveLength(2);
        expect(within(table).getAllByRole('link', { name: 'Cosmos Hub' })[0]).toHaveAttribute(
            'href',
            '/configurations/2'
        );
        expect(within(table).getAllByRole('link', { name: 'View server val-1' })[0]).toHaveAttribute(
            'href',
            '/servers/3'
        );
        // No servers: healthy nodes cannot go below zero; no disk read yet: storage is 0 (docs/spec.md §4).
        expect(statValue('Healthy Nodes')).toBe('0');
        expect(statValue('Storage Usage')).toBe('0%');

        await user.click(screen.getByRole('tab', { name: 'Warnings (1)' }));
        expect(await screen.findByText('Slow response')).toBeInTheDocument();
        expect(screen.getByText('Warning')).toBeInTheDocument();
        expect(screen.queryByText('Node is 12 blocks behind')).not.toBeInTheDocument();
    });

    it('labels the rows of one chain halt as that halt, above them, and leaves other rows as they are', async () => {
        const halt = { id: 'h1', height: 1200, since: '2024-05-01T09:55:00.000Z' };
        const node = (id: number, server: string) => ({
            ...failing,
            id,
            name: `height ${server}`,
            server: { id, name: server, address: `http://10.0.0.${id}` },
            last_error: 'No new block after height 1200',
            chain_halt: halt,
        });
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            // The halt's rows apart in the answer: the table brings them together.
            'GET /api/monitors/failed': { body: [node(11, 'node-a'), failing, node(12, 'node-b')] },
            'GET /api/monitors/warnings': { body: [] },
            'GET /api/servers': { body: servers },
        });
        renderApp('/');
        const label = `Chain halt: Cosmos Hub stands at height 1200 since ${new Date(halt.since).toLocaleString()} (2 nodes)`;
        const haltRow = await screen.findByRole('row', { name: label });
        expect(within(haltRow).getByText('Chain halt')).toBeInTheDocument();
        const rows = screen.getAllByRole('row').slice(1);
        expect(rows.map((r) => r.getAttribute('aria-label') ?? within(r).getAllByRole('link')[1]?.textContent)).toEqual(
            [label, 'height node-a', 'height node-b', 'Block height']
        );
        // The spec's row content stays: Error chip and message on each node row.
        expect(within(rows[1] as HTMLElement).getByText('Error')).toBeInTheDocument();
        expect(screen.getAllByRole('row', { name: /^Chain halt/ })).toHaveLength(1);
    });

    it("names the caller's channels whose deliveries fail, and no others", async () => {
        const channel = {
            id: 4,
            name: 'Ops alerts',
            type: 'telegram',
            is_enabled: true,
            configuration_object: '{}',
            company_id: 1,
            created_at: '2024-03-01T10:00:00.000Z',
        };
        const delivery = { status: 'failing', last_error: 'Unauthorized', since: '2024-05-01T09:00:00.000Z' };
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/monitors/failed': { body: [] },
            'GET /api/monitors/warnings': { body: [] },
            'GET /api/servers': { body: servers },
            'GET /api/notification-channels': {
                body: [
                    { ...channel, delivery },
                    { ...channel, id: 5, name: 'Switched off', is_enabled: false, delivery },
                    { ...channel, id: 6, name: 'Working', delivery: { status: 'ok' } },
                ],
            },
        });
        renderApp('/');
        const panel = await screen.findByRole('alert', { name: 'Failing notification channels' });
        const since = new Date(delivery.since).toLocaleString();
        expect(panel).toHaveTextContent(
            `Notification channel Ops alerts: Deliveries failing since ${since}: Unauthorized`
        );
        expect(within(panel).getByRole('link', { name: 'Ops alerts' })).toHaveAttribute(
            'href',
            '/notification-channels'
        );
        expect(panel).not.toHaveTextContent('Switched off');
        expect(panel).not.toHaveTextContent('Working');
        expect(screen.getByText('No critical issues found')).toBeInTheDocument();
    });

    it('shows the empty states', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/monitors/failed': { body: [] },
            'GET /api/monitors/warnings': { body: [] },
            'GET /api/servers': { body: servers.slice(0, 2) },
            'GET /api/servers/storage': { body: storage(4, 20) },
        });
        const user = userEvent.setup();
        renderApp('/');
        expect(await screen.findByText('No critical issues found')).toBeInTheDocument();
        expect(screen.getByText('All systems are running smoothly')).toBeInTheDocument();
        expect(statValue('Healthy Nodes')).toBe('2');
        expect(screen.queryByText(/Nothing is monitored yet/)).not.toBeInTheDocument();
        await user.click(screen.getByRole('tab', { name: 'Warnings (0)' }));
        expect(await screen.findByText('No warnings found')).toBeInTheDocument();
        expect(screen.getByText('All systems are running smoothly')).toBeInTheDocument();
    });

    it('leads an empty install to its first company and configuration, keeping the spec texts', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/monitors/failed': { body: [] },
            'GET /api/monitors/warnings': { body: [] },
            'GET /api/servers': { body: [] },
            'GET /api/servers/storage': { body: storage(0, 0) },
        });
        renderApp('/');
        expect(await screen.findByText(/Nothing is monitored yet/)).toBeInTheDocument();
        expect(screen.getByRole('link', { name: 'company' })).toHaveAttribute('href', '/companies');
        expect(screen.getByRole('link', { name: 'configuration' })).toHaveAttribute('href', '/configurations');
        expect(screen.getByText('All systems are running smoothly')).toBeInTheDocument();
    });

    it('only logs fetch failures, and the lists show empty', async () => {
        const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/monitors/failed': { status: 500, body: { message: 'Database down' } },
            'GET /api/monitors/warnings': 'network',
            'GET /api/servers': { body: servers },
        });
        renderApp('/');
        expect(await screen.findByText('No critical issues found')).toBeInTheDocument();
        expect(screen.getByRole('tab', { name: 'Warnings (0)' })).toBeInTheDocument();
        expect(statValue('Critical Issues')).toBe('0');
        expect(statValue('Healthy Nodes')).toBe('5');
        expect(logged).toHaveBeenCalledWith('Failed to fetch failed monitors', expect.anything());
        expect(logged).toHaveBeenCalledWith('Failed to fetch warning monitors', expect.anything());
        expect(screen.queryByText('Database down')).not.toBeInTheDocument();
    });

    it('refreshes every 30 s without a page reload', async () => {
        vi.useFakeTimers({ shouldAdvanceTime: true });
        try {
            let failed: object[] = [failing];
            const { calls } = stubApi({
                'GET /api/users/me': { body: superAdmin },
                'GET /api/monitors/failed': () => ({ body: failed }),
                'GET /api/monitors/warnings': { body: [] },
                'GET /api/servers': { body: [] },
            });
            renderApp('/');
            expect(await screen.findByRole('tab', { name: 'Critical Issues (1)' })).toBeInTheDocument();
            const before = calls.filter((call) => call.path === '/api/monitors/failed').length;
            failed = [failing, failingBare];
            await act(() => vi.advanceTimersByTimeAsync(29_000));
            expect(calls.filter((call) => call.path === '/api/monitors/failed').length).toBe(before);
            await act(() => vi.advanceTimersByTimeAsync(1_500));
            expect(await screen.findByRole('tab', { name: 'Critical Issues (2)' })).toBeInTheDocument();
            expect(calls.filter((call) => call.path === '/api/monitors/failed').length).toBe(before + 1);
        } finally {
            vi.useRealTimers();
        }
    });

    describe('database banner', () => {
        const diskFull =
            'The database cannot write: could not extend file "base/5/16385": No space left on device. Nothing was saved.';
        const failingHealth = {
            status: 503,
            body: {
                status: 'unavailable',
                message: diskFull,
                database: { status: 'failing', message: diskFull, since: '2024-05-01T10:00:00.000Z' },
            },
        };
        const dashboardApi = (me: object, health: object) => ({
            'GET /api/users/me': { body: me },
            'GET /api/monitors/failed': { body: [] },
            'GET /api/monitors/warnings': { body: [] },
            'GET /api/servers': { body: [] },
            'GET /api/health': health,
        });

        it('shows a super admin that the database cannot write, with the reason', async () => {
            stubApi(dashboardApi(superAdmin, failingHealth));
            renderApp('/');
            expect(await screen.findByText('The database is failing')).toBeInTheDocument();
            expect(screen.getByText(/No space left on device\. Nothing was saved\./)).toBeInTheDocument();
            expect(screen.getByText('Critical Issues')).toBeInTheDocument();
        });

        it('shows nothing while the database works', async () => {
            const { calls } = stubApi(dashboardApi(superAdmin, { body: { status: 'ok' } }));
            renderApp('/');
            await waitFor(() => expect(calls.some((c) => c.path === '/api/health')).toBe(true));
            await screen.findByText('System Monitoring');
            expect(screen.queryByText('The database is failing')).not.toBeInTheDocument();
        });

        it('is not shown to a company admin, who cannot act on it', async () => {
            const admin = { ...superAdmin, id: 2, username: 'alice', is_super_admin: false };
            const { calls } = stubApi(dashboardApi(admin, failingHealth));
            renderApp('/');
            await screen.findByText('System Monitoring');
            await waitFor(() => expect(statValue('Critical Issues')).toBe('0'));
            expect(screen.queryByText('The database is failing')).not.toBeInTheDocument();
            expect(calls.some((c) => c.path === '/api/health')).toBe(false);
        });
    });
});
