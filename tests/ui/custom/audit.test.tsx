import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import type { RecordedRequest } from '../fakeApi';
import { storeSession, stubApi, superAdmin } from '../fakeApi';
import { renderApp } from '../renderApp';

const entry = (id: number, message: string) => ({
    id,
    configuration: null,
    server: null,
    monitor: null,
    created_at: '2024-05-01T10:00:00.000Z',
    message,
});
const full = {
    ...entry(300, 'admin updated Monitor "Block height"'),
    configuration: { id: 2, name: 'Cosmos Hub' },
    server: { id: 3, name: 'val-1' },
    monitor: { id: 7, name: 'Block height' },
};
const rangeOf = (call: RecordedRequest) =>
    JSON.parse(new URL(call.url, 'http://x').searchParams.get('range') ?? 'null');

describe('audit', () => {
    beforeEach(() => storeSession());

    it('lists the newest entries with links to the configuration, server and monitor', async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/audit/latest': {
                body: [full, entry(299, 'admin created Configuration "Osmosis"')],
                headers: { 'Content-Range': 'audit 0-1/2' },
            },
        });
        renderApp('/audit');
        expect(await screen.findByRole('heading', { name: 'Audit', level: 1 })).toBeInTheDocument();
        const table = await screen.findByRole('table', { name: 'Audit' });
        expect(
            within(table)
                .getAllByRole('columnheader')
                .map((cell) => cell.textContent)
        ).toEqual(['Object', 'Created At', 'Message']);
        expect(await within(table).findByText('admin updated Monitor "Block height"')).toBeInTheDocument();
        expect(within(table).getByRole('link', { name: 'Cosmos Hub' })).toHaveAttribute('href', '/configurations/2');
        expect(within(table).getByRole('link', { name: 'val-1' })).toHaveAttribute('href', '/servers/3');
        expect(within(table).getByRole('link', { name: 'Block height' })).toHaveAttribute('href', '/monitor/7');
        // In UTC and saying so, as the times the server writes into audit sentences are.
        expect(within(table).getAllByText('2024-05-01 10:00:00 UTC')).toHaveLength(2);
        const rows = within(table).getAllByRole('row');
        expect(rows[1]).toHaveTextContent('Block height');
        expect(rows[2]).toHaveTextContent('admin created Configuration "Osmosis"');
        expect(rangeOf(calls.find((call) => call.path === '/api/audit/latest') as RecordedRequest)).toEqual([0, 24]);
    });

    it('filters by configuration, server, monitor and text through the API', async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/audit/latest': (request) => {
                const filter = JSON.parse(new URL(request.url, 'http://x').searchParams.get('filter') ?? '{}');
                const body = filter.server ? [full] : [full, entry(299, 'admin created Configuration "Osmosis"')];
                return { body, headers: { 'Content-Range': `audit 0-${body.length - 1}/${body.length}` } };
            },
        });
        const user = userEvent.setup();
        renderApp('/audit');
        const table = await screen.findByRole('table', { name: 'Audit' });
        expect(await within(table).findByText('admin created Configuration "Osmosis"')).toBeInTheDocument();
        for (const label of ['Configuration', 'Server', 'Monitor', 'Text']) {
            expect(screen.getByRole('textbox', { name: label })).toBeInTheDocument();
        }
        await user.type(screen.getByRole('textbox', { name: 'Server' }), 'val');
        await user.type(screen.getByRole('textbox', { name: 'Text' }), ' updated ');
        const lastCall = () => calls.filter((c) => c.path === '/api/audit/latest').at(-1) as RecordedRequest;
        const filterOf = (call: RecordedRequest) =>
            JSON.parse(new URL(call.url, 'http://x').searchParams.get('filter') ?? '{}');
        // Typing settles before the list is asked again; then both filters go, trimmed.
        await waitFor(() => expect(filterOf(lastCall())).toEqual({ server: 'val', q: 'updated' }));
        await waitFor(() => expect(within(table).queryByText('admin created Configuration "Osmosis"')).toBeNull());
        expect(within(table).getByText('admin updated Monitor "Block height"')).toBeInTheDocument();
        const last = lastCall();
        expect(rangeOf(last)).toEqual([0, 24]);
    });

    it('pages through the latest 100 entries only', async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/audit/latest': (request) => {
                const [start, end] = rangeOf(request);
                const body = Array.from({ length: end - start + 1 }, (_, i) =>
                    entry(1000 - start - i, `entry ${start + i}`)
                );
                return { body, headers: { 'Content-Range': `audit ${start}-${end}/250` } };
            },
        });
        const user = userEvent.setup();
        renderApp('/audit');
        expect(await screen.findByText('entry 0')).toBeInTheDocument();
        expect(screen.getByText('1-25 of 100')).toBeInTheDocument();
        await user.click(screen.getByRole('button', { name: 'Go to next page' }));
        expect(await screen.findByText('entry 25')).toBeInTheDocument();
        expect(rangeOf(calls.filter((call) => call.path === '/api/audit/latest').at(-1) as RecordedRequest)).toEqual([
            25, 49,
        ]);
        await user.click(screen.getByRole('button', { name: 'Go to next page' }));
        await user.click(await screen.findByRole('button', { name: 'Go to next page' }));
        expect(await screen.findByText('entry 75')).toBeInTheDocument();
        expect(screen.getByText('76-100 of 100')).toBeInTheDocument();
        expect(screen.getByRole('button', { name: 'Go to next page' })).toBeDisabled();
    });

    it('fails quietly: an empty list and no toast', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/audit/latest': { status: 500, body: { message: 'Database down' } },
        });
        renderApp('/audit');
        expect(await screen.findByText('No audit entries found')).toBeInTheDocument();
        // The columns stay over the empty text.
        const table = screen.getByRole('table', { name: 'Audit' });
        expect(
            within(table)
                .getAllByRole('columnheader')
                .map((cell) => cell.textContent)
        ).toEqual(['Object', 'Created At', 'Message']);
        await waitFor(() => expect(screen.queryByText('Database down')).not.toBeInTheDocument());
        expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });
});
