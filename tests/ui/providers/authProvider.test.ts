import { authProvider } from '../../../src/providers/authProvider';
import { getAccessToken, getUser, loadSession, SESSION_KEY } from '../../../src/providers/session';
import { anHourAgo, inOneHour, storeSession, stubApi, superAdmin } from '../fakeApi';

const tokens = (access: string, refresh: string, accessExpiresAt = inOneHour()) => ({
    accessToken: { token: access, expiresAt: accessExpiresAt },
    refreshToken: { token: refresh, expiresAt: inOneHour() },
});

describe('authProvider.login', () => {
    it('stores the tokens with their expiry times as dates, then loads the user', async () => {
        const expiresAt = '2030-05-01T12:00:00.000Z';
        const { calls } = stubApi({
            'POST /api/login': { body: tokens('access-1', 'refresh-1', expiresAt) },
            'GET /api/users/me': { body: superAdmin },
        });
        await authProvider.login({ username: 'admin', password: 'secret' });

        expect(calls[0].body).toEqual({ username: 'admin', password: 'secret' });
        const session = loadSession();
        expect(session?.accessToken).toBe('access-1');
        expect(session?.refreshToken).toBe('refresh-1');
        expect(session?.accessTokenExpiresAt).toBeInstanceOf(Date);
        expect(session?.accessTokenExpiresAt.toISOString()).toBe(expiresAt);
        expect(session?.refreshTokenExpiresAt).toBeInstanceOf(Date);
        expect(calls[1].headers.get('Authorization')).toBe('Bearer access-1');
        expect(getUser()?.username).toBe('admin');
        await expect(authProvider.getIdentity?.()).resolves.toMatchObject({ id: 1, fullName: 'admin' });
    });

    it("raises 'Failed to log in!' and clears the session when the response is not ok", async () => {
        storeSession();
        stubApi({ 'POST /api/login': { status: 401, body: { message: 'Invalid username or password' } } });
        const error = await authProvider.login({ username: 'admin', password: 'bad' }).catch((e) => e);
        expect(error.message).toBe('Failed to log in!');
        expect(error.body).toEqual({ message: 'Invalid username or password' });
        expect(localStorage.getItem(SESSION_KEY)).toBeNull();
        expect(getUser()).toBeNull();
    });

    it("raises 'Failed to log in!' when an ok response has no body", async () => {
        stubApi({ 'POST /api/login': { status: 200 } });
        await expect(authProvider.login({ username: 'a', password: 'b' })).rejects.toThrow('Failed to log in!');
        expect(localStorage.getItem(SESSION_KEY)).toBeNull();
    });

    it("ends the session with 'Failed to fetch user data' when /users/me fails", async () => {
        stubApi({
            'POST /api/login': { body: tokens('access-1', 'refresh-1') },
            'GET /api/users/me': { status: 500, body: { message: 'boom' } },
        });
        await expect(authProvider.login({ username: 'a', password: 'b' })).rejects.toThrow('Failed to fetch user data');
        expect(localStorage.getItem(SESSION_KEY)).toBeNull();
        expect(getUser()).toBeNull();
    });
});

describe('session', () => {
    it('refreshes an expired access token before a call and stores both rotated tokens', async () => {
        storeSession(anHourAgo());
        const { calls } = stubApi({
            'POST /api/refresh': { body: tokens('access-2', 'refresh-2') },
            'GET /api/users/me': { body: superAdmin },
        });
        await authProvider.checkAuth({});

        expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/refresh', 'GET /api/users/me']);
        expect(calls[0].headers.get('Authorization')).toBe('Bearer refresh-1');
        expect(calls[0].body).toBeUndefined();
        expect(calls[1].headers.get('Authorization')).toBe('Bearer access-2');
        expect(loadSession()).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    });

    it('treats an expiry equal to now as expired', async () => {
        vi.useFakeTimers({ toFake: ['Date'] });
        try {
            const now = new Date('2030-01-01T00:00:00.000Z');
            vi.setSystemTime(now);
            storeSession(now.toISOString(), '2030-01-02T00:00:00.000Z');
            const { calls } = stubApi({ 'POST /api/refresh': { body: tokens('access-2', 'refresh-2') } });
            await expect(getAccessToken()).resolves.toBe('access-2');
            expect(calls).toHaveLength(1);
        } finally {
            vi.useRealTimers();
        }
    });

    it('shares one refresh between concurrent calls', async () => {
        storeSession(anHourAgo());
        const { calls } = stubApi({ 'POST /api/refresh': { body: tokens('access-2', 'refresh-2') } });
        const results = await Promise.all([getAccessToken(), getAccessToken(), getAccessToken()]);
        expect(results).toEqual(['access-2', 'access-2', 'access-2']);
        expect(calls.filter((c) => c.path === '/api/refresh')).toHaveLength(1);
    });

    it('ends the session when the refresh is refused', async () => {
        storeSession(anHourAgo());
        stubApi({ 'POST /api/refresh': { status: 401, body: { message: 'Invalid refresh token' } } });
        await expect(authProvider.checkAuth({})).rejects.toBeDefined();
        expect(localStorage.getItem(SESSION_KEY)).toBeNull();
    });

    it('ends the session when a stored token exists but the user cannot be loaded', async () => {
        storeSession();
        stubApi({ 'GET /api/users/me': { status: 403, body: { message: 'Account disabled' } } });
        await expect(authProvider.checkAuth({})).rejects.toBeDefined();
        expect(localStorage.getItem(SESSION_KEY)).toBeNull();
        expect(getUser()).toBeNull();
    });

    it('keeps the session when the user request fails as the page is left, and ends it once the page stays', async () => {
        storeSession();
        stubApi({ 'GET /api/users/me': { status: 500, body: { message: 'aborted' } } });
        vi.useFakeTimers({ toFake: ['setTimeout'] });
        try {
            window.dispatchEvent(new Event('beforeunload'));
            await expect(authProvider.checkAuth({})).rejects.toBeDefined();
            expect(localStorage.getItem(SESSION_KEY)).not.toBeNull();
            // The navigation did not happen (stopped, a download): a failure now ends the session as usual.
            vi.advanceTimersByTime(3000);
        } finally {
            vi.useRealTimers();
        }
        await expect(authProvider.checkAuth({})).rejects.toBeDefined();
        expect(localStorage.getItem(SESSION_KEY)).toBeNull();
    });

    it('rejects checkAuth without a session and without calling the API', async () => {
        const { calls } = stubApi({});
        await expect(authProvider.checkAuth({})).rejects.toBeDefined();
        expect(calls).toHaveLength(0);
    });

    it('logout clears the session and goes to /login', async () => {
        storeSession();
        await expect(authProvider.logout({})).resolves.toBe('/login');
        expect(localStorage.getItem(SESSION_KEY)).toBeNull();
    });

    it('logout ends the sign-in on the server with the refresh token, as /refresh takes it', async () => {
        storeSession();
        const { calls } = stubApi({ 'POST /api/logout': { status: 204 } });
        await expect(authProvider.logout({})).resolves.toBe('/login');
        expect(localStorage.getItem(SESSION_KEY)).toBeNull();
        await vi.waitFor(() => expect(calls).toHaveLength(1));
        expect(calls[0]?.method).toBe('POST');
        expect(calls[0]?.path).toBe('/api/logout');
        expect(calls[0]?.headers.get('Authorization')).toBe('Bearer refresh-1');
    });

    it('logout still signs out locally when the server cannot be reached, and sends nothing without a session', async () => {
        storeSession();
        const { calls } = stubApi({ 'POST /api/logout': 'network' });
        await expect(authProvider.logout({})).resolves.toBe('/login');
        expect(loadSession()).toBeNull();
        await vi.waitFor(() => expect(calls).toHaveLength(1));
        await expect(authProvider.logout({})).resolves.toBe('/login');
        expect(calls).toHaveLength(1);
    });

    it('checkError signs out on 401 only', async () => {
        storeSession();
        await expect(authProvider.checkError({ status: 403 })).resolves.toBeUndefined();
        expect(loadSession()).not.toBeNull();
        await expect(authProvider.checkError({ status: 401 })).rejects.toBeDefined();
        expect(loadSession()).toBeNull();
    });

    it('canAccess and getPermissions follow the loaded user', async () => {
        storeSession();
        stubApi({ 'GET /api/users/me': { body: { ...superAdmin, is_super_admin: false, is_admin: false } } });
        await authProvider.checkAuth({});
        await expect(authProvider.getPermissions?.({})).resolves.toEqual({
            is_admin: false,
            is_super_admin: false,
            company_id: 1,
        });
        // Menu hiding only (docs/spec.md §6): the page itself opens by address; the server answers 403.
        await expect(authProvider.canAccess?.({ resource: 'users', action: 'list' })).resolves.toBe(true);
        await expect(authProvider.canAccess?.({ resource: 'configurations', action: 'list' })).resolves.toBe(true);
        await expect(authProvider.canAccess?.({ resource: 'configurations', action: 'edit' })).resolves.toBe(false);
    });
});
