import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { renderApp } from '../renderApp';
import { storeSession, stubApi, superAdmin } from '../fakeApi';

/** The engine quota is shown on the company overview and edited on the company's page form. */
const acme = {
    id: 1,
    name: 'Acme',
    is_active: true,
    max_concurrent_checks: 64,
    min_interval_seconds: 1,
    created_at: '2024-03-01T10:00:00.000Z',
    updated_at: '2024-03-02T10:00:00.000Z',
};

describe('company engine quota', () => {
    beforeEach(() => storeSession());

    it('shows the quota on the overview', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/companies/1': { body: { ...acme, max_concurrent_checks: 8, min_interval_seconds: 30 } },
        });
        renderApp('/companies/1');
        expect(await screen.findByText('Max concurrent checks:', {}, { timeout: 15_000 })).toBeInTheDocument();
        expect(screen.getByText('Max concurrent checks:').parentElement).toHaveTextContent('Max concurrent checks: 8');
        expect(screen.getByText('Min check interval:').parentElement).toHaveTextContent('Min check interval: 30 s');
    });

    it('edits it on the page form, and shows the field the server refuses', { timeout: 60_000 }, async () => {
        let reply: { status?: number; body: unknown } | null = null;
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/companies/1': { body: acme },
            'PUT /api/companies/1': (request) => reply ?? { body: { ...acme, ...(request.body as object) } },
        });
        const user = userEvent.setup();
        renderApp('/companies/1/edit');
        const limit = await screen.findByLabelText(/^Max concurrent checks/, {}, { timeout: 15_000 });
        const interval = screen.getByLabelText(/^Min check interval \(seconds\)/);
        reply = {
            status: 400,
            body: {
                message: 'min_interval_seconds: Min interval (seconds) must be at most 86400',
                errors: { min_interval_seconds: 'Min interval (seconds) must be at most 86400' },
            },
        };
        await user.clear(limit);
        await user.type(limit, '8');
        await user.clear(interval);
        await user.type(interval, '30');
        await user.click(screen.getByRole('button', { name: 'Save' }));
        await waitFor(() =>
            expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
                name: 'Acme',
                is_active: true,
                max_concurrent_checks: 8,
                min_interval_seconds: 30,
            })
        );
        // The spec's text, then the server's message (docs/spec.md §8).
        expect(
            await screen.findByText(
                'Failed to update company: min_interval_seconds: Min interval (seconds) must be at most 86400'
            )
        ).toBeInTheDocument();
        expect(await screen.findByText('Min interval (seconds) must be at most 86400')).toBeInTheDocument();
    });

    it('leaves the quota out of the list dialog, whose save keeps it', async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/companies': { body: { results: [acme] } },
            'PUT /api/companies/1': (request) => ({ body: { ...acme, ...(request.body as object) } }),
        });
        const user = userEvent.setup();
        renderApp('/companies');
        await user.click(await screen.findByRole('button', { name: 'Edit company Acme' }, { timeout: 15_000 }));
        const dialog = await screen.findByRole('dialog');
        expect(within(dialog).getByLabelText(/^Name/)).toBeInTheDocument();
        expect(within(dialog).queryByLabelText(/^Max concurrent checks/)).not.toBeInTheDocument();
        await user.click(within(dialog).getByRole('button', { name: 'Save' }));
        await waitFor(() =>
            expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ name: 'Acme', is_active: true })
        );
    });
});
