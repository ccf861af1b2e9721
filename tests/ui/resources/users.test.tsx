import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { storeSession, stubApi, superAdmin } from '../fakeApi';
import { renderApp } from '../renderApp';

const acme = {
    id: 1,
    name: 'Acme',
    is_active: true,
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
};
const bob = {
    id: 2,
    username: 'bob',
    is_active: false,
    is_admin: true,
    is_super_admin: false,
    company: null,
    company_id: null,
    created_at: '2024-02-01T10:00:00.000Z',
    updated_at: '2024-02-02T10:00:00.000Z',
};

describe('users', () => {
    beforeEach(() => storeSession());

    it('shows the empty state', async () => {
        stubApi({ 'GET /api/users/me': { body: superAdmin }, 'GET /api/users': { body: { results: [] } } });
        renderApp('/users');
        expect(await screen.findByText('No users found')).toBeInTheDocument();
    });

    it('lists users with their chips, company link or None, and status', async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/users': { body: { results: [superAdmin, bob] } },
        });
        renderApp('/users');
        expect(await screen.findByRole('link', { name: 'admin' })).toHaveAttribute('href', '/users/1');
        expect(screen.getByRole('link', { name: 'bob' })).toBeInTheDocument();
        expect(screen.getByText('Super Admin')).toBeInTheDocument();
        // admin and bob are both admins
        expect(screen.getAllByText('Admin')).toHaveLength(2);
        expect(screen.getByRole('link', { name: 'Acme' })).toHaveAttribute('href', '/companies/1');
        expect(screen.getByText('Company: None')).toBeInTheDocument();
        expect(screen.getByText('Inactive')).toBeInTheDocument();
    });

    it("toasts 'Failed to fetch users: <reason>'", async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/users': { status: 403, body: { message: 'Forbidden' } },
        });
        renderApp('/users');
        expect(await screen.findByText('Failed to fetch users: Forbidden')).toBeInTheDocument();
        expect(screen.getByText('No users found')).toBeInTheDocument();
    });

    it('validates the dialog: username, password for new users and company', async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/users': { body: { results: [] } },
            'GET /api/companies': { body: { results: [acme] } },
        });
        const user = userEvent.setup();
        renderApp('/users');
        await user.click(await screen.findByRole('button', { name: 'Add User' }));
        const dialog = await screen.findByRole('dialog');
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await within(dialog).findByText('Username is required')).toBeInTheDocument();
        expect(within(dialog).getByText('Password is required for new users')).toBeInTheDocument();
        expect(within(dialog).getByText('Please select a company')).toBeInTheDocument();
        expect(calls.some((c) => c.method === 'POST')).toBe(false);
    });

    it('creates a user from the page form, sending raw_password', async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/companies': { body: { results: [acme] } },
            'POST /api/users': { status: 201, body: { ...bob, id: 5, username: 'carol' } },
            'GET /api/users/5': { body: { ...bob, id: 5, username: 'carol' } },
        });
        const user = userEvent.setup();
        renderApp('/users/add');
        await user.click(await screen.findByRole('button', { name: 'Save' }));
        expect(await screen.findByText('Please enter a password')).toBeInTheDocument();
        expect(screen.getByText('Please select a company')).toBeInTheDocument();

        await user.type(screen.getByLabelText('Username'), 'carol');
        await user.type(screen.getByLabelText(/^Password/), 's3cret-pass');
        await user.click(screen.getByRole('combobox', { name: 'Company' }));
        await user.click(await screen.findByRole('option', { name: 'Acme' }));
        await user.click(screen.getByRole('button', { name: 'Save' }));
        expect(await screen.findByText('User created successfully')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
            username: 'carol',
            raw_password: 's3cret-pass',
            company_id: 1,
            is_active: true,
            is_admin: false,
            is_super_admin: false,
        });
    });

    it("toasts 'Failed to load data!' when the company picker cannot load the companies", async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/companies': { status: 500, body: { message: 'boom' } },
        });
        renderApp('/users/add');
        expect(await screen.findByText('Failed to load data!')).toBeInTheDocument();
    });

    it("toasts 'Failed! Error: <message>' when the page form save fails, without a password on edit", async () => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/users/2': { body: { ...bob, company: { id: 1, name: 'Acme' }, company_id: 1 } },
            'GET /api/companies': { body: { results: [acme] } },
            'PUT /api/users/2': { status: 409, body: { message: 'Username already taken' } },
        });
        const user = userEvent.setup();
        renderApp('/users/2/edit');
        expect(await screen.findByDisplayValue('bob')).toBeInTheDocument();
        expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
        await user.click(screen.getByRole('button', { name: 'Save' }));
        expect(await screen.findByText('Failed! Error: Username already taken')).toBeInTheDocument();
        expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
            username: 'bob',
            company_id: 1,
            is_active: false,
            is_admin: true,
            is_super_admin: false,
        });
    });

    it("toasts the server's reason once when the dialog's create is refused", async () => {
        stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/users': { body: { results: [] } },
            'GET /api/companies': { body: { results: [acme] } },
            'POST /api/users': {
                status: 409,
                body: {
                    message: 'Username "alice" is already taken',
                    errors: { username: 'Username "alice" is already taken' },
                },
            },
        });
        const user = userEvent.setup();
        renderApp('/users');
        await user.click(await screen.findByRole('button', { name: 'Add User' }));
        const dialog = await screen.findByRole('dialog');
        await user.type(within(dialog).getByLabelText('Username'), 'alice');
        await user.type(within(dialog).getByLabelText(/^Password/), 's3cret-pass');
        await user.click(within(dialog).getByRole('combobox', { name: 'Company' }));
        await user.click(await screen.findByRole('option', { name: 'Acme' }));
        await user.click(within(dialog).getByRole('button', { name: 'Add' }));
        expect(await screen.findByText('Failed to create user: Username "alice" is already taken')).toBeInTheDocument();
        // The field shows the reason too; react-admin's own "form is not valid" toast would be a second one.
        expect(await within(dialog).findByText('Username "alice" is already taken')).toBeInTheDocument();
        expect(screen.queryByText(/The form is not valid/)).not.toBeInTheDocument();
    });

    it('saves a super admin without a company', async () => {
        const root = { ...superAdmin, id: 9, username: 'root', company: null, company_id: null };
        const { calls } = stubApi({
            'GET /api/users/me': { body: superAdmin },
            'GET /api/users/9': { body: root },
            'GET /api/companies': { body: { results: [acme] } },
            'PUT /api/users/9': { body: root },
        });
        const user = userEvent.setup();
        renderApp('/users/9/edit');
        expect(await screen.findByDisplayValue('root')).toBeInTheDocument();
        await user.click(screen.getByRole('button', { name: 'Save' }));
        expect(await screen.findByText('User updated successfully')).toBeInTheDocument();
        expect(screen.queryByText('Please select a company')).not.toBeInTheDocument();
        expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ company_id: null, is_super_admin: true });
    });

    it('shows the overview with flags, company and an Edit button', async () => {
        stubApi({ 'GET /api/users/me': { body: superAdmin }, 'GET /api/users/2': { body: bob } });
        renderApp('/users/2');
        expect(await screen.findByRole('heading', { name: 'bob', level: 1 })).toBeInTheDocument();
        expect(screen.getByText('Enabled:').parentElement).toHaveTextContent('Enabled: No');
        expect(screen.getByText('Admin:').parentElement).toHaveTextContent('Admin: Yes');
        expect(screen.getByText('Company:').parentElement).toHaveTextContent('Company: None');
        expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/users/2/edit');
    });
});
