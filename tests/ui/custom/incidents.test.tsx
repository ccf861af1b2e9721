import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import type { Incident } from '../../../common/incidents';
import { type RecordedRequest, storeSession, stubApi, superAdmin } from '../fakeApi';
import { renderApp } from '../renderApp';
import { admin, plainUser } from '../resources/configurationFixtures';

const incident = (overrides: Partial<Incident>): Incident => ({
    id: '11111111-aaaa-4000-8000-000000000001',
    status: 'open',
    severity: 'critical',
    kind: 'monitor',
    monitor_id: 7,
    server_id: 3,
    configuration_id: 2,
    monitor_name: 'Block height',
    server_name: 'val-1',
    configuration_name: 'Cosmos Hub',
    message: 'No new block for 45 s',
    opened_at: '2026-11-24T03:00:00.000Z',
    acknowledged_at: null,
    acknowledged_by: null,
    acknowledged_via: null,
    closed_at: null,
    duration_seconds: 720,
    ...overrides,
});
const open = incident({});
const closed = incident({
    id: '22222222-bbbb-4000-8000-000000000002',
    status: 'closed',
    monitor_name: 'Sign misses',
    acknowledged_at: '2026-11-24T01:04:00.000Z',
    acknowledged_by: 'alice',
    acknowledged_via: 'console',
    closed_at: '2026-11-24T01:20:00.000Z',
    duration_seconds: 1200,
});
const filterOf = (r: RecordedRequest) => JSON.parse(new URL(`http://x${r.url}`).searchParams.get('filter') ?? '{}');

describe('incidents', () => {
    beforeEach(() => storeSession());

    it('lists incidents paged by the server, with MTTA and MTTR over the same filter', {
        timeout: 45_000,
    }, async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/incidents': (req) => {
                const rows = filterOf(req).status === 'open' ? [open] : [open, closed];
                return {
                    body: { results: rows },
                    headers: { 'Content-Range': `incidents 0-${rows.length - 1}/${rows.length}` },
                };
            },
            'GET /api/incidents/stats': (req) =>
                filterOf(req).status === 'open'
                    ? { body: { count: 1, acknowledged: 0, closed: 0, mtta_seconds: null, mttr_seconds: null } }
                    : { body: { count: 2, acknowledged: 1, closed: 1, mtta_seconds: 240, mttr_seconds: 1200 } },
            'GET /api/configurations': { body: [{ id: 2, name: 'Cosmos Hub', chain: 'cosmoshub' }] },
        });
        const user = userEvent.setup();
        renderApp('/incidents');
        expect(await screen.findByRole('heading', { name: 'Incidents', level: 1 })).toBeInTheDocument();
        await waitFor(() => expect(screen.getByLabelText('MTTA')).toHaveTextContent('4 min'));
        expect(screen.getByLabelText('MTTR')).toHaveTextContent('20 min');
        const rows = await screen.findAllByRole('row');
        expect(within(rows[1] as HTMLElement).getByText('Block height')).toBeInTheDocument();
        expect(within(rows[1] as HTMLElement).getByText('12 min so far')).toBeInTheDocument();
        expect(within(rows[2] as HTMLElement).getByText('by alice')).toBeInTheDocument();
        expect(within(rows[2] as HTMLElement).getByText('20 min')).toBeInTheDocument();
        const list = calls.find((c) => c.path === '/api/incidents');
        expect(list?.url).toContain('range=[0,24]');
        expect(list?.url).toContain('sort=["opened_at","DESC"]');

        await user.click(screen.getByRole('combobox', { name: 'Status' }));
        await user.click(await screen.findByRole('option', { name: 'Open' }));
        await waitFor(() => expect(screen.getByLabelText('MTTA')).toHaveTextContent('—'));
        await waitFor(() => expect(screen.queryByText('Sign misses')).not.toBeInTheDocument());
        // The figures are asked for with exactly the list's filter.
        const lastList = calls.filter((c) => c.path === '/api/incidents').at(-1);
        const lastStats = calls.filter((c) => c.path === '/api/incidents/stats').at(-1);
        expect(lastList && filterOf(lastList)).toEqual({ status: 'open' });
        expect(lastStats && filterOf(lastStats)).toEqual({ status: 'open' });
        expect(screen.getByLabelText('Incidents')).toHaveTextContent('1');
    });

    it('acknowledges an incident from its page with a note, then shows who did', { timeout: 45_000 }, async () => {
        let current: Incident = {
            ...open,
            timeline: [
                { at: open.opened_at, kind: 'alert', text: 'Alert: No new block for 45 s' },
                {
                    at: open.opened_at,
                    kind: 'alert',
                    channel_id: 4,
                    channel_name: 'Ops chat',
                    result: 'sent',
                    text: 'Alert sent to Ops chat (telegram)',
                },
                {
                    at: open.opened_at,
                    kind: 'recovery-held',
                    text: 'RECOVERED held until 2026-11-24 07:28:00 UTC',
                    until: '2026-11-24T07:28:00.000Z',
                },
            ],
        };
        const { calls } = stubApi({
            'GET /api/users/me': { body: admin },
            [`GET /api/incidents/${open.id}`]: () => ({ body: current }),
            [`POST /api/incidents/${open.id}/ack`]: (req) => {
                current = {
                    ...current,
                    acknowledged_at: '2026-11-24T03:05:00.000Z',
                    acknowledged_by: 'ops',
                    acknowledged_via: 'console',
                    timeline: [
                        ...(current.timeline ?? []),
                        {
                            at: '2026-11-24T03:05:00.000Z',
                            kind: 'acknowledged',
                            text: `Acknowledged by ops (console): ${(req.body as { note: string }).note}`,
                        },
                    ],
                };
                return { body: current };
            },
        });
        const user = userEvent.setup();
        renderApp(`/incidents/${open.id}`);
        expect(await screen.findByRole('heading', { name: 'Block height', level: 1 })).toBeInTheDocument();
        const timeline = screen.getByRole('table', { name: 'Incident timeline' });
        expect(within(timeline).getByText('Alert sent to Ops chat (telegram)')).toBeInTheDocument();
        expect(within(timeline).getByText('sent')).toBeInTheDocument();
        // The held recovery says when the channels get it, in the browser's time like the rest of the page.
        const heldUntil = new Date('2026-11-24T07:28:00.000Z').toLocaleTimeString(undefined, {
            hour: '2-digit',
            minute: '2-digit',
        });
        expect(within(timeline).getByText(`RECOVERED held until ${heldUntil}`)).toBeInTheDocument();
        expect(screen.getByText('Not yet')).toBeInTheDocument();

        await user.click(screen.getByRole('button', { name: 'Acknowledge' }));
        const dialog = await screen.findByRole('dialog', { name: 'Acknowledge incident' });
        await user.type(within(dialog).getByRole('textbox', { name: 'Note (optional)' }), 'Restarting it');
        await user.click(within(dialog).getByRole('button', { name: 'Acknowledge' }));
        expect(await screen.findByText('Incident acknowledged')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ note: 'Restarting it' });
        expect(await screen.findByText('Acknowledged by ops (console): Restarting it')).toBeInTheDocument();
        expect(screen.getByText(/by ops \(console\)$/)).toBeInTheDocument();
        expect(screen.queryByRole('button', { name: 'Acknowledge' })).not.toBeInTheDocument();
        expect(screen.getByRole('button', { name: 'Add note' })).toBeInTheDocument();
    });

    it('adds a note to a closed incident; the note is required', { timeout: 45_000 }, async () => {
        let current: Incident = { ...closed, timeline: [] };
        const { calls } = stubApi({
            'GET /api/users/me': { body: admin },
            [`GET /api/incidents/${closed.id}`]: () => ({ body: current }),
            [`POST /api/incidents/${closed.id}/notes`]: (req) => {
                const note = (req.body as { note: string }).note;
                current = {
                    ...current,
                    timeline: [{ at: closed.closed_at ?? '', kind: 'note', text: `ops: ${note}` }],
                };
                return { status: 201, body: current };
            },
        });
        const user = userEvent.setup();
        renderApp(`/incidents/${closed.id}`);
        expect(await screen.findByRole('heading', { name: 'Sign misses', level: 1 })).toBeInTheDocument();
        expect(screen.queryByRole('button', { name: 'Acknowledge' })).not.toBeInTheDocument();
        await user.click(screen.getByRole('button', { name: 'Add note' }));
        const dialog = await screen.findByRole('dialog', { name: 'Add a note' });
        expect(within(dialog).getByRole('button', { name: 'Add note' })).toBeDisabled();
        await user.type(within(dialog).getByRole('textbox', { name: 'Note' }), 'Disk was full');
        await user.click(within(dialog).getByRole('button', { name: 'Add note' }));
        expect(await screen.findByText('Note added')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ note: 'Disk was full' });
        expect(await screen.findByText('ops: Disk was full')).toBeInTheDocument();
    });

    it('shows the incident to a plain user without Acknowledge or Add note', { timeout: 45_000 }, async () => {
        stubApi({
            'GET /api/users/me': { body: plainUser },
            [`GET /api/incidents/${open.id}`]: { body: { ...open, timeline: [] } },
        });
        renderApp(`/incidents/${open.id}`);
        expect(await screen.findByRole('heading', { name: 'Block height', level: 1 })).toBeInTheDocument();
        expect(screen.getByText('12 min so far')).toBeInTheDocument();
        expect(screen.queryByRole('button', { name: 'Acknowledge' })).not.toBeInTheDocument();
        expect(screen.queryByRole('button', { name: 'Add note' })).not.toBeInTheDocument();
    });

    it('links a failing monitor on the dashboard to its open incident, with how long it has lasted and who acked it', {
        timeout: 45_000,
    }, async () => {
        const since = new Date(Date.now() - 5 * 60_000).toISOString();
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/monitors/failed': {
                body: [
                    {
                        id: 7,
                        name: 'Block height',
                        type: 'blockCheck',
                        status: false,
                        last_error: 'No new block',
                        last_check: since,
                        server: { id: 3, name: 'val-1', address: 'http://10.0.0.3' },
                        configuration: { id: 2, name: 'Cosmos Hub', chain: 'cosmoshub' },
                        incident: { id: open.id, opened_at: since, acknowledged_by: null },
                    },
                    {
                        id: 8,
                        name: 'Sign misses',
                        type: 'signMissCheck',
                        status: false,
                        last_error: 'Missed 12 of the last 100 blocks',
                        last_check: since,
                        server: { id: 3, name: 'val-1', address: 'http://10.0.0.3' },
                        configuration: { id: 2, name: 'Cosmos Hub', chain: 'cosmoshub' },
                        incident: { id: 'acked-incident', opened_at: since, acknowledged_by: 'alice' },
                    },
                ],
            },
            'GET /api/monitors/warnings': { body: [] },
            'GET /api/servers': { body: [] },
            'GET /api/servers/storage': { body: { fullest: null } },
            'GET /api/notification-channels': { body: [] },
        });
        renderApp('/');
        const [link] = await screen.findAllByRole('link', { name: 'Incident open for 5 min' });
        expect(link).toHaveAttribute('href', `/incidents/${open.id}`);
        // Someone is on the second one: its row says who, the first says nothing of the kind.
        expect(screen.getByRole('row', { name: /Sign misses/ })).toHaveTextContent('acked by alice');
        expect(screen.getByRole('row', { name: /Block height/ })).not.toHaveTextContent('acked by');
    });
});
