import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { storeSession, stubApi } from '../fakeApi';
import { renderApp } from '../renderApp';
import { admin, configuration } from './configurationFixtures';

const config = configuration({ servers: [], monitors: [] });
const pager = { id: 6, type: 'pagerduty', name: 'On-call', is_enabled: true };
const routing = { min_severity: 'critical', send_recoveries: true, send_reminders: true };

/** A link's routing is edited in the configuration detail's Notification Channels panel. */
describe('notification channel link routing', () => {
    beforeEach(() => storeSession());

    it('turns recoveries off and warnings on for one link, saved with PUT and shown as saved', {
        timeout: 30_000,
    }, async () => {
        let link = { id: 41, configuration_id: 1, notification_channel_id: 6, notification_channel: pager, ...routing };
        const { calls } = stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/configurations/1': { body: config },
            'GET /api/configurations/1/servers': { body: [] },
            'GET /api/configurations/1/monitors': { body: [] },
            'GET /api/configurations/1/notification-channels': () => ({ body: [link] }),
            'GET /api/notification-channels': { body: [pager] },
            'GET /api/configurations': { body: [config] },
            'GET /api/companies': { body: { results: [{ id: 1, name: 'Acme' }] } },
            'PUT /api/configurations/1/notification-channels/41': (req) => {
                link = { ...link, ...(req.body as object) };
                return { body: link };
            },
        });
        const user = userEvent.setup();
        renderApp('/configurations/1');
        const recoveries = await screen.findByRole('checkbox', { name: 'Send recoveries to On-call' });
        expect(recoveries).toBeChecked();
        await user.click(recoveries);
        expect(await screen.findByText('Notification channel routing saved')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ send_recoveries: false });
        await waitFor(() =>
            expect(screen.getByRole('checkbox', { name: 'Send recoveries to On-call' })).not.toBeChecked()
        );
        expect(screen.getByRole('checkbox', { name: 'Send reminders to On-call' })).toBeChecked();

        await user.click(screen.getByRole('combobox', { name: /Severity sent to On-call|Sends/ }));
        await user.click(await screen.findByRole('option', { name: 'Errors and warnings' }));
        await waitFor(() =>
            expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ min_severity: 'warning' })
        );
    });

    it('sets an escalation delay, saved when the field is left, and clears it again', { timeout: 45_000 }, async () => {
        let link: Record<string, unknown> = {
            id: 41,
            configuration_id: 1,
            notification_channel_id: 6,
            notification_channel: pager,
        };
        const { calls } = stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/configurations/1': { body: config },
            'GET /api/configurations/1/servers': { body: [] },
            'GET /api/configurations/1/monitors': { body: [] },
            'GET /api/configurations/1/notification-channels': () => ({ body: [link] }),
            'GET /api/notification-channels': { body: [pager] },
            'GET /api/configurations': { body: [config] },
            'GET /api/companies': { body: { results: [{ id: 1, name: 'Acme' }] } },
            'PUT /api/configurations/1/notification-channels/41': (req) => {
                const body = req.body as { escalate_after_minutes: number | null };
                const { escalate_after_minutes: _, ...rest } = link;
                link = body.escalate_after_minutes === null ? rest : { ...rest, ...body };
                return { body: link };
            },
        });
        const user = userEvent.setup();
        renderApp('/configurations/1');
        const delay = await screen.findByRole('spinbutton', { name: 'Escalate to On-call after minutes' });
        expect(delay).toHaveValue(null);
        await user.type(delay, '15');
        await user.tab();
        await waitFor(() =>
            expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ escalate_after_minutes: 15 })
        );
        await waitFor(() =>
            expect(screen.getByRole('spinbutton', { name: 'Escalate to On-call after minutes' })).toHaveValue(15)
        );
        await user.clear(screen.getByRole('spinbutton', { name: 'Escalate to On-call after minutes' }));
        await user.tab();
        await waitFor(() =>
            expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ escalate_after_minutes: null })
        );
        expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2);
    });
});
