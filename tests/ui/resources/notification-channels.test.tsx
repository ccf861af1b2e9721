import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';

import { storeSession, stubApi, superAdmin } from '../fakeApi';
import { renderApp } from '../renderApp';

const admin = { ...superAdmin, id: 2, username: 'ops', is_super_admin: false, company: { id: 1, name: 'Acme' } };
const reader = { ...admin, id: 3, username: 'viewer', is_admin: false };
const orphanSuperAdmin = { ...superAdmin, company: null, company_id: null };

const alerts = {
    id: 1,
    name: 'Ops alerts',
    type: 'telegram',
    is_enabled: true,
    configuration_object: JSON.stringify({ bot_token: '••••AbCd', chat_id: '-1001', topic_id: '7' }),
    company_id: 1,
    created_at: '2024-03-01T10:00:00.000Z',
};
const quiet = { ...alerts, id: 2, name: 'Quiet', is_enabled: false };

describe('notification channels', () => {
    beforeEach(() => storeSession());

    it('shows the empty state', async () => {
        stubApi({ 'GET /api/users/me': { body: admin }, 'GET /api/notification-channels': { body: [] } });
        renderApp('/notification-channels');
        expect(await screen.findByText('No notification channels configured')).toBeInTheDocument();
        expect(screen.getByText('Add your first notification channel to start receiving alerts')).toBeInTheDocument();
        expect(screen.getByRole('heading', { name: 'Notification Channels', level: 1 })).toBeInTheDocument();
        expect(await screen.findByRole('button', { name: 'Add Channel' })).toBeInTheDocument();
    });

    it('lists channels as cards: name, type chip, Active/Inactive, created date, edit and delete', async () => {
        stubApi({ 'GET /api/users/me': { body: admin }, 'GET /api/notification-channels': { body: [alerts, quiet] } });
        renderApp('/notification-channels');
        expect(await screen.findByText('Ops alerts')).toBeInTheDocument();
        expect(screen.getByText('Quiet')).toBeInTheDocument();
        expect(screen.getAllByText('telegram')).toHaveLength(2);
        expect(screen.getByText('Active')).toBeInTheDocument();
        expect(screen.getByText('Inactive')).toBeInTheDocument();
        const created = `Created: ${new Date(alerts.created_at).toLocaleDateString()}`;
        expect(screen.getAllByText(created)).toHaveLength(2);
        expect(await screen.findByRole('button', { name: 'Edit channel Ops alerts' })).toBeInTheDocument();
        expect(screen.getByRole('button', { name: 'Delete channel Quiet' })).toBeInTheDocument();
    });

    it("says on its card that a channel's deliveries fail, with the reason, beside Active", async () => {
        const refused = {
            ...alerts,
            delivery: { status: 'failing', last_error: 'Unauthorized', since: '2024-03-02T08:00:00.000Z' },
        };
        const fine = { ...quiet, id: 3, name: 'Fine', is_enabled: true, delivery: { status: 'ok' } };
        stubApi({ 'GET /api/users/me': { body: admin }, 'GET /api/notification-channels': { body: [refused, fine] } });
        renderApp('/notification-channels');
        const since = new Date(refused.delivery.since).toLocaleString();
        expect(await screen.findByText(`Deliveries failing since ${since}: Unauthorized`)).toBeInTheDocument();
        expect(screen.getAllByText('Active')).toHaveLength(2);
        expect(screen.getAllByText(/Deliveries failing/)).toHaveLength(1);
    });

    it('logs a failed fetch and shows the empty state, without a toast', async () => {
        const log = vi.spyOn(console, 'error').mockImplementation(() => {});
        stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/notification-channels': { status: 400, body: { message: 'Bad query' } },
        });
        renderApp('/notification-channels');
        expect(await screen.findByText('No notification channels configured')).toBeInTheDocument();
        await waitFor(() =>
            expect(log).toHaveBeenCalledWith('Failed to fetch notification channels', expect.anything())
        );
        expect(screen.queryByText('Bad query')).not.toBeInTheDocument();
    });

    it('hides add, edit and delete from read-only users', async () => {
        stubApi({ 'GET /api/users/me': { body: reader }, 'GET /api/notification-channels': { body: [alerts] } });
        renderApp('/notification-channels');
        expect(await screen.findByText('Ops alerts')).toBeInTheDocument();
        // Let the access check settle before asserting absence.
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(screen.queryByRole('button', { name: 'Add Channel' })).not.toBeInTheDocument();
        expect(screen.queryByRole('button', { name: /Edit channel/ })).not.toBeInTheDocument();
        expect(screen.queryByRole('button', { name: /Delete channel/ })).not.toBeInTheDocument();
    });

    it('validates the dialog: name, type and configuration object, then bot token and chat ID', async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/notification-channels': { body: [] },
        });
        const user = userEvent.setup();
        renderApp('/notification-channels');
        await user.click(await screen.findByRole('button', { name: 'Add Channel' }));
        const dialog = await screen.findByRole('dialog');
        expect(within(dialog).getByText('Add Notification Channel')).toBeInTheDocument();
        expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
        expect(within(dialog).getByRole('button', { name: 'Test' })).toBeInTheDocument();
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await within(dialog).findByText('Please enter a name!')).toBeInTheDocument();
        expect(within(dialog).getByText('Please select a type!')).toBeInTheDocument();
        expect(within(dialog).getByText('Please enter a configuration object!')).toBeInTheDocument();

        await user.click(within(dialog).getByRole('combobox', { name: /Type/ }));
        await user.click(await screen.findByRole('option', { name: 'telegram' }));
        await user.type(within(dialog).getByLabelText(/Name/), 'Ops');
        await user.click(within(dialog).getByRole('button', { name: 'Test' }));
        expect(await within(dialog).findByText('Please enter a bot token!')).toBeInTheDocument();
        expect(within(dialog).getByText('Please enter a chat ID!')).toBeInTheDocument();
        expect(within(dialog).queryByText('Please enter a configuration object!')).not.toBeInTheDocument();
        expect(calls.some((c) => c.method === 'POST')).toBe(false);
    });

    it('adds a telegram channel, closes the dialog and refreshes the list', async () => {
        let channels: unknown[] = [];
        const { calls } = stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/notification-channels': () => ({ body: channels }),
            'POST /api/notification-channels': () => {
                channels = [{ ...alerts, id: 5, name: 'Ops' }];
                return { status: 201, body: channels[0] };
            },
        });
        const user = userEvent.setup();
        renderApp('/notification-channels');
        await user.click(await screen.findByRole('button', { name: 'Add Channel' }));
        const dialog = await screen.findByRole('dialog');
        await user.type(within(dialog).getByLabelText(/Name/), 'Ops');
        await user.click(within(dialog).getByRole('combobox', { name: /Type/ }));
        await user.click(await screen.findByRole('option', { name: 'telegram' }));
        await user.type(within(dialog).getByLabelText(/Bot Token/), '123:secret');
        await user.type(within(dialog).getByLabelText(/Chat ID/), '-1001');
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Notification channel added successfully!')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
            name: 'Ops',
            type: 'telegram',
            configuration_object: JSON.stringify({ bot_token: '123:secret', chat_id: '-1001' }),
            is_enabled: true,
            company_id: 1,
        });
        await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
        expect(await screen.findByText('Ops')).toBeInTheDocument();
    });

    it('asks a super admin without a company to pick one, and sends nothing until then', async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: orphanSuperAdmin },
            'GET /api/notification-channels': { body: [] },
            'GET /api/companies': { body: { results: [{ id: 1, name: 'Acme' }] } },
            'POST /api/notification-channels': { status: 201, body: { ...alerts, id: 9, name: 'Ops' } },
            'POST /api/notification-channels/test': { body: { message: 'Notification channel tested successfully!' } },
        });
        const created = () => calls.filter((c) => c.method === 'POST' && c.path === '/api/notification-channels');
        const user = userEvent.setup();
        renderApp('/notification-channels');
        await user.click(await screen.findByRole('button', { name: 'Add Channel' }));
        const dialog = await screen.findByRole('dialog');
        // Marked required (the asterisk) before anything is typed.
        const company = await within(dialog).findByRole('combobox', { name: 'Company' });
        expect(document.getElementById(`${company.id}-label`)?.textContent).toMatch(/^Company\s*\*$/);
        await user.type(within(dialog).getByLabelText(/Name/), 'Ops');
        await user.click(within(dialog).getByRole('combobox', { name: /Type/ }));
        await user.click(await screen.findByRole('option', { name: 'telegram' }));
        await user.type(within(dialog).getByLabelText(/Bot Token/), '123:secret');
        await user.type(within(dialog).getByLabelText(/Chat ID/), '-1001');
        // A test needs no company.
        await user.click(within(dialog).getByRole('button', { name: 'Test' }));
        expect(await screen.findByText('Notification channel tested successfully!')).toBeInTheDocument();
        expect(within(dialog).queryByText('Please select a company')).not.toBeInTheDocument();
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await within(dialog).findByText('Please select a company')).toBeInTheDocument();
        expect(created()).toHaveLength(0);
        expect(screen.queryByText(/Failed to add notification channel!/)).not.toBeInTheDocument();

        await user.click(company);
        await user.click(await screen.findByRole('option', { name: 'Acme' }));
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Notification channel added successfully!')).toBeInTheDocument();
        expect(created()[0]?.body).toMatchObject({ name: 'Ops', company_id: 1 });
    });

    it("shows 'Failed to add notification channel!' with the server's message inside the dialog", async () => {
        stubApi({
            'GET /api/users/me': { body: orphanSuperAdmin },
            'GET /api/notification-channels': { body: [] },
            'GET /api/companies': { body: { results: [{ id: 1, name: 'Acme' }] } },
            'POST /api/notification-channels': {
                status: 400,
                body: { message: 'Invalid notification channel', errors: { company_id: 'Company does not exist' } },
            },
        });
        const user = userEvent.setup();
        renderApp('/notification-channels');
        await user.click(await screen.findByRole('button', { name: 'Add Channel' }));
        const dialog = await screen.findByRole('dialog');
        expect(await within(dialog).findByRole('combobox', { name: /Company/ })).toBeInTheDocument();
        await user.type(within(dialog).getByLabelText(/Name/), 'Ops');
        await user.click(within(dialog).getByRole('combobox', { name: /Type/ }));
        await user.click(await screen.findByRole('option', { name: 'telegram' }));
        await user.type(within(dialog).getByLabelText(/Bot Token/), '123:secret');
        await user.type(within(dialog).getByLabelText(/Chat ID/), '-1001');
        await user.click(within(dialog).getByRole('combobox', { name: /Company/ }));
        await user.click(await screen.findByRole('option', { name: 'Acme' }));
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await within(dialog).findByRole('alert')).toHaveTextContent(
            'Failed to add notification channel! Invalid notification channel'
        );
        expect(await within(dialog).findByText('Company does not exist')).toBeInTheDocument();
    });

    it('telegram buttons: Allow Actions is on unless turned off, and only an off switch is sent', async () => {
        const off = {
            ...alerts,
            configuration_object: JSON.stringify({ bot_token: '••••AbCd', chat_id: '-1001', allow_actions: false }),
        };
        const { calls } = stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/notification-channels': { body: [off] },
            'PUT /api/notification-channels/1': (request) => ({ body: { ...off, ...(request.body as object) } }),
        });
        const user = userEvent.setup();
        renderApp('/notification-channels');
        await user.click(await screen.findByRole('button', { name: 'Edit channel Ops alerts' }));
        const dialog = await screen.findByRole('dialog');
        const allow = within(dialog).getByRole('switch', { name: 'Allow Actions' });
        expect(allow).not.toBeChecked();
        await user.type(within(dialog).getByRole('textbox', { name: 'Allowed User IDs' }), '111, 222');
        await user.click(allow);
        expect(allow).toBeChecked();
        await user.click(within(dialog).getByRole('button', { name: 'Edit' }));
        expect(await screen.findByText('Notification channel updated successfully!')).toBeInTheDocument();
        // Back at its default (on), the switch is left out: the object reads as it did before the setting existed.
        const put = calls.find((c) => c.method === 'PUT')?.body as { configuration_object?: string } | undefined;
        expect(JSON.parse(put?.configuration_object ?? '{}')).toEqual({
            bot_token: '••••AbCd',
            chat_id: '-1001',
            allowed_user_ids: '111, 222',
        });
    });

    it('edits with the masked token and tests with the channel id', async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/notification-channels': { body: [alerts] },
            'POST /api/notification-channels/test': { body: { message: 'Test message sent' } },
            'PUT /api/notification-channels/1': (request) => ({ body: { ...alerts, ...(request.body as object) } }),
        });
        const user = userEvent.setup();
        renderApp('/notification-channels');
        await user.click(await screen.findByRole('button', { name: 'Edit channel Ops alerts' }));
        const dialog = await screen.findByRole('dialog');
        // Spec §2: edit uses the same dialog, titled Add Notification Channel; its button reads Edit.
        expect(within(dialog).getByText('Add Notification Channel')).toBeInTheDocument();
        expect(within(dialog).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
        // The telegram fields under plain labels, not their configuration_object keys; the chat ID says where to find it.
        expect(within(dialog).getByRole('textbox', { name: 'Bot Token' })).toHaveValue('••••AbCd');
        const chat = within(dialog).getByRole('textbox', { name: 'Chat ID' });
        expect(chat).toHaveValue('-1001');
        expect(chat).toHaveAccessibleDescription(
            "Send your bot a message (in a group: /start@your_bot), then open https://api.telegram.org/bot<token>/getUpdates: the chat ID is message.chat.id (a group's is negative)"
        );
        expect(within(dialog).getByRole('textbox', { name: 'Topic ID' })).toHaveValue('7');
        expect(
            within(dialog).queryByText(/\((bot_token|chat_id|topic_id|allow_actions|allowed_user_ids)\)/)
        ).toBeNull();
        expect(within(dialog).queryByRole('combobox', { name: /Company/ })).not.toBeInTheDocument();

        await user.click(within(dialog).getByRole('button', { name: 'Test' }));
        expect(await screen.findByText('Notification channel tested successfully!')).toBeInTheDocument();
        const expected = {
            name: 'Ops alerts',
            type: 'telegram',
            configuration_object: JSON.stringify({ bot_token: '••••AbCd', chat_id: '-1001', topic_id: '7' }),
            is_enabled: true,
            company_id: 1,
        };
        expect(calls.find((c) => c.path === '/api/notification-channels/test')?.body).toEqual({ ...expected, id: 1 });
        expect(screen.getByRole('dialog')).toBeInTheDocument();

        await user.clear(within(dialog).getByLabelText(/Topic ID/));
        await user.click(within(dialog).getByRole('button', { name: 'Edit' }));
        expect(await screen.findByText('Notification channel updated successfully!')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
            ...expected,
            configuration_object: JSON.stringify({ bot_token: '••••AbCd', chat_id: '-1001' }),
        });
        await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });

    it("toasts 'Failed to test notification channel!' with Telegram's description", async () => {
        stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/notification-channels': { body: [] },
            'POST /api/notification-channels/test': { status: 400, body: { message: 'Unauthorized' } },
        });
        const user = userEvent.setup();
        renderApp('/notification-channels');
        await user.click(await screen.findByRole('button', { name: 'Add Channel' }));
        const dialog = await screen.findByRole('dialog');
        await user.type(within(dialog).getByLabelText(/Name/), 'Ops');
        await user.click(within(dialog).getByRole('combobox', { name: /Type/ }));
        await user.click(await screen.findByRole('option', { name: 'telegram' }));
        await user.type(within(dialog).getByLabelText(/Bot Token/), 'bad');
        await user.type(within(dialog).getByLabelText(/Chat ID/), '-1001');
        await user.click(within(dialog).getByRole('button', { name: 'Test' }));
        expect(await screen.findByText('Failed to test notification channel! Unauthorized')).toBeInTheDocument();
    });

    it('deletes after confirmation, and toasts a failure', async () => {
        let fail = false;
        stubApi({
            'GET /api/users/me': { body: admin },
            'GET /api/notification-channels': { body: [alerts] },
            'DELETE /api/notification-channels/1': () =>
                fail ? { status: 500, body: { message: 'boom' } } : { body: alerts },
        });
        const user = userEvent.setup();
        renderApp('/notification-channels');
        await user.click(await screen.findByRole('button', { name: 'Delete channel Ops alerts' }));
        expect(
            await screen.findByText(
                'Are you sure you want to delete the notification channel "Ops alerts"? This action cannot be undone.'
            )
        ).toBeInTheDocument();
        await user.click(screen.getByRole('button', { name: 'Delete' }));
        expect(await screen.findByText('Channel deleted successfully')).toBeInTheDocument();

        fail = true;
        await user.click(await screen.findByRole('button', { name: 'Delete channel Ops alerts' }));
        await user.click(await screen.findByRole('button', { name: 'Delete' }));
        expect(await screen.findByText('Failed to delete channel')).toBeInTheDocument();
    });
});
