import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { storeSession, stubApi, superAdmin } from '../fakeApi';
import { checksReply, historyReply } from '../historyFixtures';
import { renderApp } from '../renderApp';

const monitor = {
    id: 7,
    name: 'Block height',
    type: 'blockCheck',
    is_enabled: true,
    configuration_id: 2,
    server_id: 3,
    server: { id: 3, name: 'val-1', address: 'http://10.0.0.3' },
    configuration: { id: 2, name: 'Cosmos Hub', chain: 'cosmoshub' },
    configuration_object: '{}',
    status: true,
    last_error: null,
    last_check: '2024-05-01T10:00:00.000Z',
};

const checks = checksReply(100).results;

const routes = (overrides = {}) => ({
    'GET /api/users/me': { body: superAdmin },
    'GET /api/monitors/7': { body: monitor },
    'GET /api/audit/latest': { body: [], headers: { 'Content-Range': 'audit 0-0/0' } },
    'GET /api/monitors/7/checks': { body: { results: checks } },
    'GET /api/monitors/7/history': { body: historyReply() },
    ...overrides,
});

/** The figure beside a period's term in the Uptime list. */
const uptimeOf = (period: string) =>
    screen.getAllByRole('term').find((element) => element.textContent === period)?.nextElementSibling?.textContent;

describe('monitor history', () => {
    beforeEach(() => storeSession());

    it('shows the last 100 checks as named bars, with counts in words and the time and message on focus', async () => {
        const { calls } = stubApi(routes());
        renderApp('/monitor/7');
        const bar = await screen.findByRole('list', { name: 'Last 100 checks' });
        const bars = within(bar).getAllByRole('listitem');
        expect(bars).toHaveLength(100);
        const tenth = checks[9];
        expect(bars[9]).toHaveAccessibleName(`Warning at ${new Date(tenth.t).toLocaleString()}: Check 10 warning`);
        expect(bars[24]).toHaveAccessibleName(expect.stringMatching(/^Error at .*: Check 25 error$/));
        expect(bars[0]).toHaveAccessibleName(`OK at ${new Date(checks[0].t).toLocaleString()}`);
        expect(screen.getByText('Last 100 checks: 88 OK, 8 Warning, 4 Error')).toBeInTheDocument();
        expect(calls.find((call) => call.path === '/api/monitors/7/checks')?.url).toContain('limit=100');

        // One Tab stop (the newest bar); the arrow keys walk the row and the tooltip tells the check.
        const user = userEvent.setup();
        expect(bars.filter((element) => element.tabIndex === 0)).toEqual([bars[99]]);
        bars[99].focus();
        await user.keyboard('{Home}');
        expect(bars[0]).toHaveFocus();
        await user.keyboard('{ArrowRight}');
        expect(bars[1]).toHaveFocus();
        await user.keyboard('{End}{ArrowLeft}');
        expect(bars[98]).toHaveFocus();
        await user.hover(bars[24]);
        expect(await screen.findByRole('tooltip')).toHaveTextContent(
            `${new Date(checks[24].t).toLocaleString()}Error: Check 25 error`
        );
    });

    it('names what each location saw at a check made from several, and nothing more for a check from one', async () => {
        const [single, several] = checksReply(2).results;
        const locations = [
            { location: 'fra-1', level: 'error' },
            { location: 'local', level: 'ok' },
            { location: 'sgp-1', level: 'none' },
        ];
        stubApi(
            routes({
                'GET /api/monitors/7/checks': {
                    body: {
                        results: [
                            { ...single, locations: null },
                            { ...several, level: 'warning', message: 'Down from fra-1', locations },
                        ],
                    },
                },
            })
        );
        renderApp('/monitor/7');
        const bars = within(await screen.findByRole('list', { name: 'Last 2 checks' })).getAllByRole('listitem');
        expect(bars[0]).toHaveAccessibleName(`OK at ${new Date(single.t).toLocaleString()}`);
        expect(bars[1]).toHaveAccessibleName(
            `Warning at ${new Date(several.t).toLocaleString()}: Down from fra-1. By location: fra-1 Error, local OK, sgp-1 No answer`
        );
        await userEvent.setup().hover(bars[1]);
        expect(await screen.findByRole('tooltip')).toHaveTextContent(
            'By location: fra-1 Error, local OK, sgp-1 No answer'
        );
    });

    it('shows uptime for 24 h, 7 d, 30 d and 1 y, N/A without checks, and the charts with their summaries', async () => {
        stubApi(routes());
        renderApp('/monitor/7');
        expect(await screen.findByRole('heading', { name: 'Uptime', level: 3 })).toBeInTheDocument();
        await waitFor(() => expect(uptimeOf('24 hours')).toBe('99.50%'));
        expect(uptimeOf('7 days')).toBe('99.95%');
        expect(uptimeOf('30 days')).toBe('98.12%');
        expect(uptimeOf('1 year')).toBe('N/A');
        const latency = screen.getByRole('figure', { name: 'Latency (ms)' });
        expect(latency).toHaveTextContent('Average 112 ms, highest 423 ms over the last 24 hours');
        expect(screen.getByRole('figure', { name: 'Block height' })).toHaveTextContent(
            'Latest 5023, lowest 4990, highest 5023 over the last 24 hours'
        );
        // The chart library loads on demand and draws its lines.
        await waitFor(() => expect(latency.querySelectorAll('.MuiLineChart-linePlot path[d]')).toHaveLength(2));
        expect(within(latency).getByText('Average')).toBeInTheDocument();
        expect(within(latency).getByText('Highest')).toBeInTheDocument();
    });

    it("shades the monitor's own incidents on the charts, a closed and an open one", async () => {
        const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
        const incident = (id: string, opened: number, closed: number | null) => ({
            id,
            status: closed === null ? 'open' : 'closed',
            monitor_id: 7,
            opened_at: ago(opened),
            closed_at: closed === null ? null : ago(closed),
        });
        const { calls } = stubApi(
            routes({
                'GET /api/incidents': {
                    body: { results: [incident('a', 120, 60), incident('b', 30, null)] },
                    headers: { 'Content-Range': 'incidents 0-1/2' },
                },
            })
        );
        renderApp('/monitor/7');
        const latency = await screen.findByRole('figure', { name: 'Latency (ms)' });
        const bands = () =>
            [...latency.querySelectorAll('rect')].filter((rect) => rect.getAttribute('opacity') === '0.18');
        await waitFor(() => expect(bands()).toHaveLength(2));
        const asked = calls.find((call) => call.path === '/api/incidents')?.url ?? '';
        expect(JSON.parse(new URLSearchParams(asked.split('?')[1]).get('filter') ?? '{}')).toEqual({ monitor_id: 7 });
    });

    it('asks for the range picked and links the CSV export of that range', async () => {
        const { calls } = stubApi(routes());
        const user = userEvent.setup();
        renderApp('/monitor/7');
        await screen.findByRole('figure', { name: 'Latency (ms)' });
        const spanOf = (url: string) => {
            const query = new URLSearchParams(url.split('?')[1]);
            return Date.parse(query.get('to') ?? '') - Date.parse(query.get('from') ?? '');
        };
        const historyCalls = () => calls.filter((call) => call.path === '/api/monitors/7/history');
        expect(spanOf(historyCalls()[0].url)).toBe(24 * 3_600_000);
        expect(screen.getByRole('button', { name: '24 h' })).toHaveAttribute('aria-pressed', 'true');

        await user.click(screen.getByRole('button', { name: '7 d' }));
        await waitFor(() => expect(spanOf(historyCalls().at(-1)?.url ?? '')).toBe(7 * 24 * 3_600_000));
        expect(screen.getByRole('button', { name: '7 d' })).toHaveAttribute('aria-pressed', 'true');
        await waitFor(() =>
            expect(screen.getByText('Average 112 ms, highest 423 ms over the last 7 days')).toBeInTheDocument()
        );
        const csv = screen.getByRole('link', { name: 'Download CSV' });
        const href = csv.getAttribute('href') ?? '';
        expect(href.split('?')[0]).toBe('/api/monitors/7/history.csv');
        expect(spanOf(href)).toBe(7 * 24 * 3_600_000);

        await user.click(screen.getByRole('button', { name: '1 y' }));
        await waitFor(() => expect(spanOf(historyCalls().at(-1)?.url ?? '')).toBe(365 * 24 * 3_600_000));
    });

    it('says so when there are no checks yet, and keeps the page when the history cannot be read', async () => {
        stubApi(
            routes({
                'GET /api/monitors/7/checks': { body: { results: [] } },
                'GET /api/monitors/7/history': { status: 500, body: { message: 'history store down' } },
            })
        );
        renderApp('/monitor/7');
        expect(await screen.findByText('No checks recorded yet')).toBeInTheDocument();
        expect(await screen.findByText(/History is not available: history store down/)).toBeInTheDocument();
        expect(screen.getByRole('heading', { name: 'Block height', level: 1 })).toBeInTheDocument();
    });
});
