import { screen, within } from '@testing-library/react';

import { storeSession, stubApi, superAdmin } from '../fakeApi';
import { renderApp } from '../renderApp';
import { configuration, monitor, server } from '../resources/configurationFixtures';

const hub = { id: 2, name: 'Cosmos Hub', chain: 'cosmoshub' };
const failing = {
    id: 7,
    name: 'Block height',
    type: 'blockCheck',
    status: false,
    last_error: 'Node is 12 blocks behind',
    last_check: '2024-05-01T10:00:00.000Z',
    server: { id: 3, name: 'val-1', address: 'http://10.0.0.3' },
    configuration: hub,
    uptime_30d: 97.4567,
};
const rowOf = (table: HTMLElement, name: string) => within(within(table).getByText(name).closest('tr') as HTMLElement);

describe('30-day uptime beside monitors and configurations', () => {
    beforeEach(() => storeSession());

    it('shows it under each monitor on the dashboard, N/A without checks, and keeps the spec columns', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/monitors/failed': {
                body: [failing, { ...failing, id: 8, name: 'Sign misses', uptime_30d: null }],
            },
            'GET /api/monitors/warnings': { body: [] },
            'GET /api/servers': { body: [] },
            'GET /api/servers/storage': { body: { fullest: null } },
        });
        renderApp('/');
        const table = await screen.findByRole('table');
        expect(
            within(table)
                .getAllByRole('columnheader')
                .map((cell) => cell.textContent)
        ).toEqual(['Status', 'Configuration', 'Monitor', 'Server', 'Message', 'Last Check', 'Actions']);
        expect(rowOf(table, 'Block height').getByText('Uptime (30 d): 97.45%')).toBeInTheDocument();
        expect(rowOf(table, 'Sign misses').getByText('Uptime (30 d): N/A')).toBeInTheDocument();
        expect(within(table).getByRole('link', { name: 'Block height' })).toHaveAttribute('href', '/monitor/7');
    });

    it('shows it for the configuration and each of its monitors on the detail page', async () => {
        const up = { ...monitor(), uptime_30d: 100 };
        const down = { ...monitor({ id: 2, name: 'block check', type: 'blockCheck' }), uptime_30d: 99.999 };
        const bare = monitor({ id: 3, name: 'disk', type: 'nodeExporterDiskSpace' });
        const node = server({ monitors: [up, down, bare] });
        const config = { ...configuration({ servers: [node], monitors: [up, down, bare] }), uptime_30d: 99.5 };
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations/1': { body: config },
            'GET /api/configurations/1/servers': { body: [node] },
            'GET /api/configurations/1/monitors': { body: [up, down, bare] },
            'GET /api/configurations/1/notification-channels': { body: [] },
            'GET /api/notification-channels': { body: [] },
            'GET /api/configurations': { body: [config] },
            'GET /api/companies': { body: { results: [] } },
        });
        renderApp('/configurations/1');
        expect(await screen.findByRole('heading', { name: config.name, level: 1 })).toBeInTheDocument();
        expect(screen.getByText('Uptime (30 d): 99.50%')).toBeInTheDocument();
        const monitors = await screen.findByRole('table', { name: 'Monitors' });
        expect(rowOf(monitors, up.name).getByText('Uptime (30 d): 100%')).toBeInTheDocument();
        // Rounded down: an outage in the period never reads as 100%.
        expect(rowOf(monitors, 'block check').getByText('Uptime (30 d): 99.99%')).toBeInTheDocument();
        // A monitor the API sends no uptime for shows no line at all.
        expect(rowOf(monitors, 'disk').queryByText(/Uptime/)).not.toBeInTheDocument();
    });

    it('shows it on each configuration card of the list', async () => {
        const config = { ...configuration(), uptime_30d: 88.1 };
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/configurations': { body: [config, { ...configuration({ id: 2, name: 'Hub main' }) }] },
            'GET /api/companies': { body: { results: [] } },
        });
        renderApp('/configurations');
        // The card is a named article; its open button holds only the name.
        const card = await screen.findByRole('article', { name: `Configuration ${config.name}` });
        expect(within(card).getByText('Uptime (30 d): 88.10%')).toBeInTheDocument();
        const other = screen.getByRole('article', { name: 'Configuration Hub main' });
        expect(within(other).queryByText(/Uptime/)).not.toBeInTheDocument();
    });
});
