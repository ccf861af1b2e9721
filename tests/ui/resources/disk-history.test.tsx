import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { storeSession, stubApi, superAdmin } from '../fakeApi';
import { diskHistoryReply } from '../historyFixtures';
import { renderApp } from '../renderApp';

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

const routes = (overrides = {}) => ({
    'GET /api/users/me': { body: superAdmin },
    'GET /api/servers/7': { body: server },
    'GET /api/servers/7/services': { body: [] },
    'GET /api/servers/7/monitors': { body: [] },
    'GET /api/configurations/3/servers': { body: [server] },
    'GET /api/servers/7/disk-history': { body: diskHistoryReply() },
    ...overrides,
});

const spanOf = (url: string) => {
    const query = new URLSearchParams(url.split('?')[1]);
    return Date.parse(query.get('to') ?? '') - Date.parse(query.get('from') ?? '');
};

describe('server disk history', () => {
    beforeEach(() => storeSession());

    it('charts each mountpoint with its days until full, or says it is not growing', async () => {
        const { calls } = stubApi(routes());
        renderApp('/servers/7');
        expect(await screen.findByRole('heading', { name: 'Disk Usage Over Time' })).toBeInTheDocument();
        const root = await screen.findByRole('figure', { name: 'Disk /' });
        expect(root).toHaveTextContent('72% used · Full in 12 days');
        expect(screen.getByRole('figure', { name: 'Disk /data' })).toHaveTextContent('40% used · Not growing');
        const diskCalls = () => calls.filter((call) => call.path === '/api/servers/7/disk-history');
        expect(spanOf(diskCalls()[0].url)).toBe(7 * 24 * 3_600_000);

        await userEvent.setup().click(screen.getByRole('button', { name: '30 d' }));
        await waitFor(() => expect(spanOf(diskCalls().at(-1)?.url ?? '')).toBe(30 * 24 * 3_600_000));
    });

    it('fits the range to a new disk: a few minutes of readings get the 15 min axis, not a week', async () => {
        const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
        const { calls } = stubApi(
            routes({
                'GET /api/servers/7/disk-history': {
                    body: {
                        mountpoints: [
                            {
                                mountpoint: '/',
                                points: [3, 2, 1].map((m) => ({ t: minutesAgo(m), used_percent: 40 + m })),
                                days_until_full: null,
                            },
                        ],
                    },
                },
            })
        );
        renderApp('/servers/7');
        const diskCalls = () => calls.filter((call) => call.path === '/api/servers/7/disk-history');
        await waitFor(() => expect(spanOf(diskCalls().at(-1)?.url ?? '')).toBe(15 * 60_000));
        expect(spanOf(diskCalls()[0].url)).toBe(7 * 24 * 3_600_000);
        expect(screen.getByRole('button', { name: '15 min' })).toHaveAttribute('aria-pressed', 'true');
        // A range the user picks stays.
        await userEvent.setup().click(screen.getByRole('button', { name: '1 h' }));
        await waitFor(() => expect(spanOf(diskCalls().at(-1)?.url ?? '')).toBe(3_600_000));
    });

    it('reads "Full in about N h (at HH:MM)" and "Full in 1 day" for disks about to fill', async () => {
        stubApi(
            routes({
                'GET /api/servers/7/disk-history': {
                    body: {
                        mountpoints: [
                            {
                                mountpoint: '/',
                                points: [{ t: new Date().toISOString(), used_percent: 99 }],
                                days_until_full: 0.4,
                            },
                            { mountpoint: '/var', points: [], days_until_full: 1.7 },
                        ],
                    },
                },
            })
        );
        renderApp('/servers/7');
        // 0.4 days: about 10 hours from now, and the time it comes to (read either side of the render).
        const at = () =>
            new Date(Date.now() + 0.4 * 24 * 3_600_000).toLocaleTimeString(undefined, {
                hour: '2-digit',
                minute: '2-digit',
            });
        const before = at();
        const text = (await screen.findByRole('figure', { name: 'Disk /' })).textContent;
        expect([before, at()].map((t) => `Disk /99% used · Full in about 10 h (at ${t})`)).toContain(text);
        expect(screen.getByRole('figure', { name: 'Disk /var' })).toHaveTextContent('No reading · Full in 1 day');
    });
});
