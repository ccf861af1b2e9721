import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { inOneHour, stubApi, superAdmin } from '../fakeApi';
import { renderApp } from '../renderApp';

const tokens = {
    accessToken: { token: 'access-1', expiresAt: inOneHour() },
    refreshToken: { token: 'refresh-1', expiresAt: inOneHour() },
};

async function signIn(username = 'admin', password = 'secret') {
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Username'), username);
    await user.type(screen.getByLabelText('Password'), password);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    return user;
}

describe('login screen', () => {
    it('is titled as a node monitor, with a password show/hide toggle', async () => {
        stubApi({});
        const user = userEvent.setup();
        renderApp('/login');
        expect(await screen.findByRole('heading', { name: 'Node Monitor' })).toBeInTheDocument();
        const password = screen.getByLabelText('Password');
        expect(password).toHaveAttribute('type', 'password');
        await user.click(screen.getByRole('button', { name: 'toggle password visibility' }));
        expect(password).toHaveAttribute('type', 'text');
    });

    it('sends a signed-out visitor of a page to the login screen', async () => {
        stubApi({});
        renderApp('/companies');
        expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    });

    it("reads 'Signing in...' with disabled inputs while busy, then opens the dashboard", async () => {
        let answer: (value: unknown) => void = () => {};
        stubApi({
            'POST /api/login': () =>
                new Promise((resolve) => {
                    answer = () => resolve({ body: tokens });
                }),
            'GET /api/users/me': { body: superAdmin },
        });
        renderApp('/login');
        await signIn();
        expect(await screen.findByRole('button', { name: 'Signing in...' })).toBeDisabled();
        expect(screen.getByLabelText('Username')).toBeDisabled();
        expect(screen.getByLabelText('Password')).toBeDisabled();
        answer(null);
        expect(await screen.findByRole('menuitem', { name: 'Dashboard' })).toHaveAttribute('href', '/');
        expect(JSON.parse(localStorage.getItem('securityTokens') ?? '{}').accessToken).toBe('access-1');
    });

    it("shows the server's message for refused credentials", async () => {
        stubApi({ 'POST /api/login': { status: 401, body: { message: 'Invalid username or password' } } });
        renderApp('/login');
        await signIn('admin', 'wrong');
        expect(await screen.findByText('Invalid username or password')).toBeInTheDocument();
        expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    });

    it('takes the refusal off screen when the next attempt starts, so it cannot outlive a good login', async () => {
        let refuse = true;
        let answer: (value: unknown) => void = () => {};
        stubApi({
            'POST /api/login': () =>
                refuse
                    ? { status: 401, body: { message: 'Invalid username or password' } }
                    : new Promise((resolve) => {
                          answer = () => resolve({ body: tokens });
                      }),
            'GET /api/users/me': { body: superAdmin },
        });
        renderApp('/login');
        const user = await signIn('admin', 'secret');
        expect(await screen.findByText('Invalid username or password')).toBeInTheDocument();
        refuse = false;
        await user.click(screen.getByRole('button', { name: 'Sign in' }));
        // Well within the toast's 5 s: only the new attempt can have taken it away.
        await waitFor(() => expect(screen.queryByText('Invalid username or password')).not.toBeInTheDocument(), {
            timeout: 1500,
        });
        answer(null);
        expect(await screen.findByRole('menuitem', { name: 'Dashboard' })).toBeInTheDocument();
    });

    it("shows 'Login failed' when the refusal carries no message", async () => {
        stubApi({ 'POST /api/login': { status: 502, body: '<html>bad gateway</html>' } });
        renderApp('/login');
        await signIn();
        expect(await screen.findByText('Login failed')).toBeInTheDocument();
    });

    it("shows 'Failed to fetch user data' when the user cannot be loaded", async () => {
        stubApi({ 'POST /api/login': { body: tokens }, 'GET /api/users/me': { status: 500 } });
        renderApp('/login');
        await signIn();
        expect(await screen.findByText('Failed to fetch user data')).toBeInTheDocument();
        await waitFor(() => expect(localStorage.getItem('securityTokens')).toBeNull());
    });
});
