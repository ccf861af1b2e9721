import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import type { MaintenanceWindow, Silence } from '../../../common/silences';
import { storeSession, stubApi, superAdmin } from '../fakeApi';
import { renderApp } from '../renderApp';
import { admin, configuration, monitor, plainUser, server } from '../resources/configurationFixtures';

const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
const blockCheck = monitor({ id: 7, name: 'Block height', type: 'blockCheck', status: false, last_error: 'stuck' });

const silence = (overrides: Partial<Silence> = {}): Silence => ({
    id: 31,
    monitor_id: null,
    server_id: 10,
    configuration_id: null,
    target: { type: 'server', id: 10, name: 'node-1', configuration_id: 1, configuration_name: 'Osmosis main' },
    starts_at: inHours(-1),
    ends_at: inHours(3),
    reason: 'Rebuilding node-1',
    created_by: 'ops',
    created_at: inHours(-1),
    ended_at: null,
    ended_early: false,
    active: true,
    ...overrides,
});

const window = (overrides: Partial<MaintenanceWindow> = {}): MaintenanceWindow => ({
    id: 41,
    configuration_id: 1,
    server_id: null,
    target: {
        type: 'configuration',
        id: 1,
        name: 'Osmosis main',
        configuration_id: 1,
        configuration_name: 'Osmosis main',
    },
    starts_at: inHours(24),
    ends_at: inHours(26),
    repeat_weekly: false,
    mutes: 'node',
    reason: 'Upgrade to v25',
    created_by: 'ops',
    created_at: inHours(-1),
    updated_at: inHours(-1),
    active: false,
    next_starts_at: inHours(24),
    next_ends_at: inHours(26),
    ...overrides,
});

describe('Silence dialog on the monitor page', () => {
    beforeEach(() => storeSession());

    it('needs a reason, posts the preset end and shows the monitor as silenced', async () => {
        let current: typeof blockCheck & { silenced_until?: string; silence_reason?: string } = blockCheck;
        const { calls } = stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/monitors/7': () => ({ body: current }),
            'GET /api/audit/latest': { body: [] },
            'POST /api/silences': (request) => {
                const body = request.body as { ends_at: string; reason: string };
                current = { ...current, silenced_until: body.ends_at, silence_reason: body.reason };
                return { status: 201, body: silence({ id: 32, monitor_id: 7, ends_at: body.ends_at }) };
            },
        });
        const user = userEvent.setup();
        renderApp('/monitor/7');
        await user.click(await screen.findByRole('button', { name: 'Silence' }));
        const dialog = await screen.findByRole('dialog', { name: 'Silence "Block height"' });
        await user.click(within(dialog).getByRole('button', { name: 'Silence' }));
        expect(await within(dialog).findByText('Please give a reason')).toBeInTheDocument();
        expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

        await user.click(within(dialog).getByRole('radio', { name: '4 hours' }));
        await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Resyncing from snapshot');
        const before = Date.now();
        await user.click(within(dialog).getByRole('button', { name: 'Silence' }));

        await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
        const body = calls.find((c) => c.method === 'POST')?.body as Record<string, unknown>;
        expect(body).toMatchObject({ monitor_id: 7, reason: 'Resyncing from snapshot' });
        const endsIn = Date.parse(String(body.ends_at)) - before;
        expect(endsIn).toBeGreaterThanOrEqual(4 * 3600_000 - 1000);
        expect(endsIn).toBeLessThanOrEqual(4 * 3600_000 + 60_000);
        expect(await screen.findByText(/^Silenced "Block height" until /)).toBeInTheDocument();
        expect(
            await screen.findByLabelText(/^Silenced until .*: Resyncing from snapshot$/, { selector: 'div' })
        ).toBeInTheDocument();
    });

    it('takes a custom end and shows the server’s field error', async () => {
        stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/monitors/7': { body: blockCheck },
            'GET /api/audit/latest': { body: [] },
            'POST /api/silences': {
                status: 400,
                body: {
                    message: 'ends_at must be in the future',
                    errors: { ends_at: 'ends_at must be in the future' },
                },
            },
        });
        const user = userEvent.setup();
        renderApp('/monitor/7');
        await user.click(await screen.findByRole('button', { name: 'Silence' }));
        const dialog = await screen.findByRole('dialog');
        await user.click(within(dialog).getByRole('radio', { name: 'Until…' }));
        const endsAt = within(dialog).getByLabelText('Ends at');
        await user.type(endsAt, '2020-01-01T10:00');
        await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Too late');
        await user.click(within(dialog).getByRole('button', { name: 'Silence' }));
        expect(await within(dialog).findByText('ends_at must be in the future')).toBeInTheDocument();
    });

    it('is not offered to read-only users', async () => {
        stubApi({
            'GET /api/users/me': { body: plainUser },
            'GET /api/monitors/7': { body: { ...blockCheck, silenced_until: inHours(2), silence_reason: 'Upgrade' } },
            'GET /api/audit/latest': { body: [] },
        });
        renderApp('/monitor/7');
        expect(await screen.findByRole('heading', { name: 'Block height', level: 1 })).toBeInTheDocument();
        expect(screen.getByLabelText(/^Silenced until .*: Upgrade$/, { selector: 'div' })).toBeInTheDocument();
        expect(screen.queryByRole('button', { name: 'Silence' })).not.toBeInTheDocument();
    });
});

describe('Silence on the server page', () => {
    beforeEach(() => storeSession());

    it('silences a server for a day', async () => {
        const node = { ...server({ id: 10 }), configuration: { id: 1, name: 'Osmosis main', chain: 'osmosis' } };
        const { calls } = stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/servers/10': { body: node },
            'GET /api/servers/10/services': { body: [] },
            'GET /api/servers/10/monitors': { body: [] },
            'POST /api/silences': { status: 201, body: silence({ ends_at: inHours(24) }) },
        });
        const user = userEvent.setup();
        renderApp('/servers/10');
        await user.click(await screen.findByRole('button', { name: 'Silence' }));
        const dialog = await screen.findByRole('dialog', { name: 'Silence "node-1"' });
        await user.click(within(dialog).getByRole('radio', { name: '1 day' }));
        await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Disk swap');
        await user.click(within(dialog).getByRole('button', { name: 'Silence' }));
        expect(await screen.findByText(/^Silenced "node-1" until /)).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ server_id: 10, reason: 'Disk swap' });
    });
});

describe('Silences and maintenance windows on the configuration detail', () => {
    beforeEach(() => storeSession());

    const config = configuration({ servers: [server()], monitors: [blockCheck] });
    const routes = (extra: Parameters<typeof stubApi>[0] = {}) => ({
        'GET /api/users/me': { body: admin },
        'GET /api/configurations/1': { body: config },
        'GET /api/configurations/1/servers': { body: config.servers },
        'GET /api/configurations/1/monitors': { body: config.monitors },
        'GET /api/configurations/1/notification-channels': { body: [] },
        'GET /api/notification-channels': { body: [] },
        ...extra,
    });

    it('lists the configuration’s silences and windows, ends a silence and deletes a window', async () => {
        const other = silence({
            id: 33,
            reason: 'Another configuration',
            target: { type: 'configuration', id: 2, name: 'Hub', configuration_id: 2, configuration_name: 'Hub' },
        });
        const { calls } = stubApi(
            routes({
                'GET /api/configurations/1/monitors': {
                    body: [{ ...blockCheck, silenced_until: inHours(3), silence_reason: 'Rebuilding node-1' }],
                },
                'GET /api/silences': { body: { results: [silence(), other] } },
                'GET /api/maintenance-windows': { body: { results: [window()] } },
                'DELETE /api/silences/31': { body: silence({ ended_early: true, active: false }) },
                'DELETE /api/maintenance-windows/41': { body: window() },
            })
        );
        const user = userEvent.setup();
        renderApp('/configurations/1');
        const silences = await screen.findByRole('table', { name: 'Silences' });
        expect(within(silences).getByText('Server node-1')).toBeInTheDocument();
        expect(within(silences).getByText('Rebuilding node-1')).toBeInTheDocument();
        expect(screen.queryByText('Another configuration')).not.toBeInTheDocument();
        const windows = screen.getByRole('table', { name: 'Maintenance windows' });
        expect(within(windows).getByText('Upgrade to v25')).toBeInTheDocument();
        // The monitors table marks the silenced monitor.
        expect(
            within(screen.getByRole('table', { name: 'Monitors' })).getByLabelText(
                /^Silenced until .*: Rebuilding node-1$/,
                {
                    selector: 'div',
                }
            )
        ).toBeInTheDocument();

        await user.click(within(silences).getByRole('button', { name: 'End silence of Server node-1' }));
        expect(await screen.findByText('Silence ended')).toBeInTheDocument();
        expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/silences/31')).toBe(true);
        await user.click(
            within(windows).getByRole('button', { name: 'Delete maintenance window of Configuration Osmosis main' })
        );
        expect(await screen.findByText('Maintenance window deleted')).toBeInTheDocument();
        expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/maintenance-windows/41')).toBe(true);
    });

    it('adds a weekly window for one server', async () => {
        const { calls } = stubApi(
            routes({
                'GET /api/silences': { body: { results: [] } },
                'GET /api/maintenance-windows': { body: { results: [] } },
                'POST /api/maintenance-windows': {
                    status: 201,
                    body: window({ server_id: 10, configuration_id: null }),
                },
            })
        );
        const user = userEvent.setup();
        renderApp('/configurations/1');
        expect(await screen.findByText('No silences or maintenance windows')).toBeInTheDocument();
        await user.click(screen.getByRole('button', { name: 'Add window' }));
        const dialog = await screen.findByRole('dialog', { name: 'Add maintenance window' });
        await user.click(within(dialog).getByRole('combobox', { name: 'Applies to' }));
        await user.click(await screen.findByRole('option', { name: 'Server node-1' }));
        await user.type(within(dialog).getByLabelText(/Starts at/), '2030-03-04T02:00');
        await user.type(within(dialog).getByLabelText(/Ends at/), '2030-03-04T04:00');
        await user.click(within(dialog).getByRole('checkbox', { name: 'Repeat every week' }));
        // Node health by default, said in words; a weekly reboot of everything is chosen here.
        expect(within(dialog).getByText(/validator duty \(jailed, missed blocks…\) still alerts/)).toBeInTheDocument();
        await user.click(within(dialog).getByRole('combobox', { name: 'Mutes' }));
        await user.click(await screen.findByRole('option', { name: 'Everything' }));
        await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Weekly restart');
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Maintenance window planned')).toBeInTheDocument();
        const body = calls.find((c) => c.method === 'POST')?.body;
        expect(body).toEqual({
            server_id: 10,
            starts_at: new Date('2030-03-04T02:00').toISOString(),
            ends_at: new Date('2030-03-04T04:00').toISOString(),
            repeat_weekly: true,
            mutes: 'all',
            reason: 'Weekly restart',
        });
    });

    it('the dashboard announces a window ahead of time', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/monitors/failed': { body: [{ ...blockCheck, silenced_until: inHours(26), silence_reason: 'x' }] },
            'GET /api/monitors/warnings': { body: [] },
            'GET /api/servers': { body: [] },
            'GET /api/servers/storage': { body: { fullest: null } },
            'GET /api/notification-channels': { body: [] },
            'GET /api/maintenance-windows': {
                body: { results: [window(), window({ id: 42, reason: 'Far away', next_starts_at: inHours(24 * 30) })] },
            },
        });
        renderApp('/');
        const card = await screen.findByRole('region', { name: 'Maintenance windows' });
        expect(within(card).getByRole('link', { name: 'Configuration Osmosis main' })).toHaveAttribute(
            'href',
            '/configurations/1'
        );
        expect(within(card).getByText(/Upgrade to v25/)).toBeInTheDocument();
        expect(within(card).queryByText(/Far away/)).not.toBeInTheDocument();
        expect(await screen.findByLabelText(/^Silenced until .*: x$/, { selector: 'div' })).toBeInTheDocument();
    });
});
