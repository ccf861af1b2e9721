import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { renderApp } from '../renderApp';
import { storeSession, stubApi, superAdmin } from '../fakeApi';

const acme = {
    id: 1,
    name: 'Acme',
    is_active: true,
    max_concurrent_checks: 64,
    min_interval_seconds: 1,
    created_at: '2024-03-01T10:00:00.000Z',
    updated_at: '2024-03-02T10:00:00.000Z',
};
const globex = { ...acme, id: 2, name: 'Globex', is_active: false };

describe('companies', () => {
    beforeEach(() => storeSession());

    it('shows the empty state', async () => {
        stubApi({ 'GET /api/users/me': { body: superAdmin }, 'GET /api/companies': { body: { results: [] } } });
        renderApp('/companies');
        expect(await screen.findByText('No companies found')).toBeInTheDocument();
    });

    it('lists companies as cards with their status', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/companies': { body: { results: [acme, globex] } },
        });
        renderApp('/companies');
        expect(await screen.findByRole('link', { name: 'Acme' })).toHaveAttribute('href', '/companies/1');
        expect(screen.getByRole('link', { name: 'Globex' })).toBeInTheDocument();
        expect(screen.getByText('Active')).toBeInTheDocument();
        expect(screen.getByText('Inactive')).toBeInTheDocument();
        expect(screen.getByRole('button', { name: 'Delete company Acme' })).toBeInTheDocument();
    });

    it("toasts 'Failed to fetch companies: <reason>' and shows the empty state", async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/companies': { status: 400, body: { message: 'Bad filter' } },
        });
        renderApp('/companies');
        expect(await screen.findByText('Failed to fetch companies: Bad filter')).toBeInTheDocument();
        expect(screen.getByText('No companies found')).toBeInTheDocument();
    });

    it('validates the dialog name, then creates the company and refreshes the list', async () => {
        let results = [acme];
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/companies': () => ({ body: { results } }),
            'POST /api/companies': (request) => {
                results = [...results, { ...globex, ...(request.body as object), id: 2 }];
                return { status: 201, body: results[1] };
            },
        });
        const user = userEvent.setup();
        renderApp('/companies');
        await user.click(await screen.findByRole('button', { name: 'Add Company' }));
        const dialog = await screen.findByRole('dialog');
        await user.type(within(dialog).getByLabelText('Name'), '   ');
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await within(dialog).findByText('Company name is required')).toBeInTheDocument();
        expect(calls.some((c) => c.method === 'POST')).toBe(false);

        await user.clear(within(dialog).getByLabelText('Name'));
        await user.type(within(dialog).getByLabelText('Name'), '  Initech ');
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Company created successfully')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Initech', is_active: true });
        await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
        expect(await screen.findByRole('link', { name: 'Initech' })).toBeInTheDocument();
    });

    it("deletes after confirmation, and shows the server's reason on a 409", async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/companies': { body: { results: [acme] } },
            'DELETE /api/companies/1': { status: 409, body: { message: 'Company still owns users' } },
        });
        const user = userEvent.setup();
        renderApp('/companies');
        await user.click(await screen.findByRole('button', { name: 'Delete company Acme' }));
        expect(
            await screen.findByText('Are you sure you want to delete the company "Acme"? This action cannot be undone.')
        ).toBeInTheDocument();
        await user.click(screen.getByRole('button', { name: 'Delete' }));
        expect(await screen.findByText('Failed to delete company: Company still owns users')).toBeInTheDocument();
    });

    it('shows the overview with an Edit button', async () => {
        stubApi({ 'GET /api/users/me': { body: superAdmin }, 'GET /api/companies/1': { body: acme } });
        renderApp('/companies/1');
        expect(await screen.findByRole('heading', { name: 'Acme', level: 1 })).toBeInTheDocument();
        expect(screen.getAllByText('Active').length).toBeGreaterThan(0);
        expect(screen.getByText(/Created:/)).toBeInTheDocument();
        expect(screen.getByText(/Updated:/)).toBeInTheDocument();
        expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/companies/1/edit');
    });

    it("shows 'Company not found' for an unknown id", async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/companies/99': { status: 404, body: { message: 'Company not found' } },
        });
        renderApp('/companies/99');
        expect(await screen.findByRole('heading', { name: 'Company not found' })).toBeInTheDocument();
        expect(await screen.findByText('Failed to fetch company!')).toBeInTheDocument();
    });

    it('validates and submits the page form at /companies/add', async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'POST /api/companies': { status: 400, body: { message: 'Invalid', errors: { name: 'Name taken' } } },
        });
        const user = userEvent.setup();
        renderApp('/companies/add');
        await user.click(await screen.findByRole('button', { name: 'Save' }));
        expect(await screen.findByText('Company name is required')).toBeInTheDocument();
        await user.type(screen.getByLabelText('Name'), 'Acme');
        await user.click(screen.getByRole('button', { name: 'Save' }));
        expect(await screen.findByText('Failed to create company: Invalid')).toBeInTheDocument();
        expect(await screen.findByText('Name taken')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Acme', is_active: true });
    });

    it('shows the allowed networks and edits them one range per line', async () => {
        let saved: unknown = null;
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/companies/1': { body: { ...acme, allowed_networks: ['10.0.0.0/8'] } },
            'PUT /api/companies/1': (request) => {
                saved = request.body;
                const nets = (request.body as { allowed_networks: string[] }).allowed_networks;
                if (nets.includes('10.0.0.0/33'))
                    return {
                        status: 400,
                        body: {
                            message: 'allowed_networks: 10.0.0.0/33 has a prefix longer than /32',
                            errors: { allowed_networks: '10.0.0.0/33 has a prefix longer than /32' },
                        },
                    };
                return { body: { ...acme, allowed_networks: nets } };
            },
        });
        const user = userEvent.setup();
        renderApp('/companies/1');
        expect(await screen.findByText('10.0.0.0/8')).toBeInTheDocument();
        cleanup();
        renderApp('/companies/1/edit');
        const field = await screen.findByLabelText('Allowed networks');
        expect(field).toHaveValue('10.0.0.0/8');
        await user.type(field, '\n10.0.0.0/33');
        await user.click(screen.getByRole('button', { name: 'Save' }));
        expect(
            await screen.findByText(
                'Failed to update company: allowed_networks: 10.0.0.0/33 has a prefix longer than /32'
            )
        ).toBeInTheDocument();
        expect(saved).toEqual({
            name: 'Acme',
            is_active: true,
            allowed_networks: ['10.0.0.0/8', '10.0.0.0/33'],
            max_concurrent_checks: 64,
            min_interval_seconds: 1,
        });
        await user.clear(field);
        await user.type(field, '10.0.0.0/8\n192.168.50.0/24');
        await user.click(screen.getByRole('button', { name: 'Save' }));
        await waitFor(() =>
            expect(saved).toEqual({
                name: 'Acme',
                is_active: true,
                allowed_networks: ['10.0.0.0/8', '192.168.50.0/24'],
                max_concurrent_checks: 64,
                min_interval_seconds: 1,
            })
        );
        expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2);
    }, 60_000);
});
