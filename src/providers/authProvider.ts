import { type AuthProvider, HttpError, type UserIdentity } from 'react-admin';

import { canAccessPage } from './canAccess';
import { request } from './httpClient';
import {
    clearSession,
    ensureUser,
    FETCH_USER_FAILED,
    forgetEndedReason,
    getUser,
    LOGIN_FAILED,
    type LoginResponse,
    loadSession,
    saveSession,
    sessionFromResponse,
    signOut,
} from './session';

export { FETCH_USER_FAILED };

const SIGNED_OUT_PERMISSIONS_DELAY_MS = 50;

export interface Credentials {
    username: string;
    password: string;
}

export const authProvider: AuthProvider = {
    async login({ username, password }: Credentials) {
        const response = await request<LoginResponse>('/login', { method: 'POST', body: { username, password } });
        const session = response.ok ? sessionFromResponse(response.json) : null;
        if (!session) {
            clearSession();
            // The body goes along so the login screen can show the server's message.
            throw new HttpError(LOGIN_FAILED, response.status, response.json);
        }
        // A fresh start: forget any user (or user request) of an earlier session, and why that one ended.
        clearSession();
        forgetEndedReason();
        saveSession(session);
        try {
            await ensureUser();
        } catch {
            clearSession();
            throw new Error(FETCH_USER_FAILED);
        }
    },

    async logout() {
        const session = loadSession();
        // Without a session this is react-admin leaving an ended one: keep the reason the sign-in page shows.
        if (session) signOut();
        else clearSession();
        // Ends the sign-in on the server too (best effort): signing out never waits for, or fails with, the network.
        if (session) void request('/logout', { method: 'POST', token: session.refreshToken }).catch(() => {});
        return '/login';
    },

    async checkAuth() {
        if (!loadSession()) throw { message: false, redirectTo: '/login' };
        try {
            await ensureUser();
        } catch {
            throw { message: false, redirectTo: '/login' };
        }
    },

    async checkError(error: { status?: number } | undefined) {
        // 401: the tokens are no longer accepted (refresh already tried). 403 is a read-only user: stay signed in.
        if (error?.status === 401) {
            clearSession();
            throw new Error();
        }
    },

    async getIdentity(): Promise<UserIdentity> {
        const user = await ensureUser();
        return { ...user, id: user.id, fullName: user.username };
    },

    async getPermissions() {
        if (!loadSession()) {
            // Signed out: answer after react-admin's logout has navigated to /login. An instant answer lets
            // its LogoutOnMount route re-run checkAuth → logout in a loop for a while (see ra-core useLogout).
            await new Promise((resolve) => setTimeout(resolve, SIGNED_OUT_PERMISSIONS_DELAY_MS));
            return null;
        }
        const user = await ensureUser();
        return { is_admin: user.is_admin, is_super_admin: user.is_super_admin, company_id: user.company_id ?? null };
    },

    async canAccess({ resource, action }) {
        const user = getUser() ?? (loadSession() ? await ensureUser().catch(() => null) : null);
        return canAccessPage(user, { resource, action });
    },
};
