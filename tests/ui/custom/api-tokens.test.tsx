import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { storeSession, stubApi } from '../fakeApi';
import { renderApp } from '../renderApp';
import { plainUser } from '../resources/configurationFixtures';

const existing = {
    id: 4,
    name: 'grafana',
    scope: 'read',
    expires_at: null,
    last_used_at: null,
    created_at: '2026-11-01T10:00:00.000Z',
};

describe('API tokens page', () => {
    beforeEach(() => storeSession());

    it('is reached from the user menu, creates a token and shows its secret once, deletes one', async () => {
        let list = [existing];
        const api = stubApi({
            'GET /api/users/me': { body: plainUser },
            'GET /api/configurations': { body: [] },
            'GET /api/tokens': () => ({ body: list }),
            'POST /api/tokens': (req) => {
                const made = { ...existing, id: 5, name: (req.body as { name: string }).name, scope: 'write' };
                list = [...list, made];
                return { status: 201, body: { ...made, token: 'nmt_secret-shown-once' } };
            },
            'DELETE /api/tokens/4': () => {
                list = list.filter((t) => t.id !== 4);
                return { body: existing };
            },
        });
        const user = userEvent.setup();
        renderApp('/configurations');
        await user.click(await screen.findByRole('button', { name: /Profile/ }));
        await user.click(await screen.findByRole('menuitem', { name: 'API tokens' }));
        expect(await screen.findByRole('heading', { name: 'API tokens', level: 1 })).toBeInTheDocument();
        expect(await screen.findByText('grafana')).toBeInTheDocument();

        await user.click(screen.getByRole('button', { name: 'Create token' }));
        const dialog = await screen.findByRole('dialog', { name: 'Create API token' });
        await user.type(within(dialog).getByLabelText('Name'), 'deploy script');
        await user.click(within(dialog).getByRole('combobox', { name: 'Scope' }));
        await user.click(await screen.findByRole('option', { name: 'write' }));
        await user.click(within(dialog).getByRole('button', { name: 'Create' }));
        expect(await screen.findByText('nmt_secret-shown-once')).toBeInTheDocument();
        expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'deploy script', scope: 'write' });
        expect(await screen.findByText('deploy script')).toBeInTheDocument();

        await user.click(await screen.findByRole('button', { name: 'Delete API token grafana' }));
        await waitFor(() => expect(screen.queryByText('grafana')).toBeNull());
        expect(await screen.findByText('API token "grafana" deleted')).toBeInTheDocument();
    });

    it("shows the server's reason next to a refused field", async () => {
        stubApi({
            'GET /api/users/me': { body: plainUser },
            'GET /api/tokens': { body: [] },
            'POST /api/tokens': {
                status: 400,
                body: {
                    message: 'expires_at must be in the future',
                    errors: { expires_at: 'expires_at must be in the future' },
                },
            },
        });
        const user = userEvent.setup();
        renderApp('/api-tokens');
        expect(await screen.findByText('No API tokens yet')).toBeInTheDocument();
        await user.click(screen.getByRole('button', { name: 'Create token' }));
        const dialog = await screen.findByRole('dialog', { name: 'Create API token' });
        await user.type(within(dialog).getByLabelText('Name'), 'x');
        await user.click(within(dialog).getByRole('button', { name: 'Create' }));
        expect(await within(dialog).findByText('expires_at must be in the future')).toBeInTheDocument();
        expect(
            await screen.findByText('Failed to create API token: expires_at must be in the future')
        ).toBeInTheDocument();
    });
});
