import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { storeSession, stubApi, superAdmin } from '../fakeApi';
import { renderApp } from '../renderApp';

const plainUser = { ...superAdmin, id: 3, username: 'viewer', is_admin: false, is_super_admin: false };

const menuLinks = () =>
    screen
        .getAllByRole('menuitem')
        .map((item) => item.textContent)
        .filter(Boolean);

describe('layout', () => {
    beforeEach(() => storeSession());

    it('shows the whole menu, grouped, to a super admin', async () => {
        stubApi({ 'GET /api/users/me': { body: superAdmin } });
        renderApp('/');
        expect(await screen.findByRole('menuitem', { name: 'Logout' })).toHaveAttribute('href', '/logout');
        expect(screen.getByText('Node Monitor')).toBeInTheDocument();
        expect(menuLinks()).toEqual([
            'Dashboard',
            'Configurations',
            'Notification channels',
            'Network Status',
            'Incidents',
            'Status pages',
            'Users',
            'Company',
            'Tail log',
            'Audit',
            'Logout',
        ]);
        expect(screen.getByText('Main')).toBeInTheDocument();
        expect(screen.getByText('System')).toBeInTheDocument();
        expect(screen.getByText('Account')).toBeInTheDocument();
        expect(screen.getByRole('menuitem', { name: 'Configurations' })).toHaveAttribute('href', '/configurations');
        expect(screen.getByRole('menuitem', { name: 'Tail log' })).toHaveAttribute('href', '/logger');
    });

    it('hides Users, Company and Tail log from other users', async () => {
        stubApi({ 'GET /api/users/me': { body: plainUser } });
        renderApp('/');
        expect(await screen.findByRole('menuitem', { name: 'Logout' })).toHaveAttribute('href', '/logout');
        await waitFor(() =>
            expect(menuLinks()).toEqual([
                'Dashboard',
                'Configurations',
                'Notification channels',
                'Network Status',
                'Incidents',
                'Status pages',
                'Audit',
                'Logout',
            ])
        );
    });

    it('lets any signed-in user reach the super-admin routes by address: menu hiding only', async () => {
        stubApi({
            'GET /api/users/me': { body: plainUser },
            'GET /api/users': { status: 403, body: { message: 'Forbidden' } },
        });
        renderApp('/users');
        expect(await screen.findByRole('heading', { name: 'Users', level: 1 })).toBeInTheDocument();
        expect(screen.queryByRole('menuitem', { name: 'Users' })).not.toBeInTheDocument();
    });

    it.each([
        ['/users', 'Users'],
        ['/companies', 'Companies'],
        ['/logger', 'Tail log'],
    ])('tells a plain user at %s that only super admins can see it, without a refused call', async (path, title) => {
        const { calls } = stubApi({
            'GET /api/users/me': { body: plainUser },
            'GET /api/users': { status: 403, body: { message: 'Forbidden' } },
            'GET /api/companies': { status: 403, body: { message: 'Forbidden' } },
        });
        renderApp(path);
        expect(await screen.findByText('Only super admins can see this page.')).toBeInTheDocument();
        expect(screen.getByRole('heading', { name: title, level: 1 })).toBeInTheDocument();
        expect(screen.queryByRole('button', { name: /^Add/ })).not.toBeInTheDocument();
        expect(screen.queryByText(/No users found|No companies found|WebSocket|Forbidden/)).not.toBeInTheDocument();
        expect(calls.filter((c) => c.path === '/api/users' || c.path === '/api/companies')).toEqual([]);
    });

    it("shows 'Loading...' while the session's user is loading", async () => {
        stubApi({ 'GET /api/users/me': () => new Promise(() => {}) });
        renderApp('/');
        expect(await screen.findByText('Loading...')).toBeInTheDocument();
    });

    it('Logout clears the session and goes to the login screen', async () => {
        stubApi({ 'GET /api/users/me': { body: superAdmin } });
        const user = userEvent.setup();
        renderApp('/');
        await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
        expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
        expect(localStorage.getItem('securityTokens')).toBeNull();
    });

    it('serves the placeholder routes', async () => {
        stubApi({ 'GET /api/users/me': { body: superAdmin } });
        renderApp('/servers');
        expect(await screen.findByText('Servers are managed from their configuration.')).toBeInTheDocument();
    });
});
