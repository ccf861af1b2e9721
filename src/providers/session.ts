import { HttpError } from 'react-admin';

import type { User } from '../../common/entities';
import { assertOk, type HttpResponse, messageOf, type RequestOptions, request } from './httpClient';

/** localStorage key of the session (spec §3). */
export const SESSION_KEY = 'securityTokens';
export const LOGIN_FAILED = 'Failed to log in!';

export interface Session {
    accessToken: string;
    accessTokenExpiresAt: Date;
    refreshToken: string;
    refreshTokenExpiresAt: Date;
}

interface TokenPair {
    token: string;
    expiresAt: string;
}

/** Body of `POST /login` and `POST /refresh`. */
export interface LoginResponse {
    accessToken: TokenPair;
    refreshToken: TokenPair;
}

function toDate(value: unknown): Date | null {
    if (typeof value !== 'string' && typeof value !== 'number' && !(value instanceof Date)) return null;
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date;
}

function isTokenPair(value: unknown): value is TokenPair {
    return (
        !!value &&
        typeof value === 'object' &&
        'token' in value &&
        typeof value.token === 'string' &&
        value.token !== '' &&
        'expiresAt' in value &&
        toDate(value.expiresAt) !== null
    );
}

/** The session a login or refresh body describes, or null when the body lacks either token. */
export function sessionFromResponse(body: unknown): Session | null {
    if (!body || typeof body !== 'object') return null;
    const { accessToken, refreshToken } = body as Partial<LoginResponse>;
    if (!isTokenPair(accessToken) || !isTokenPair(refreshToken)) return null;
    return {
        accessToken: accessToken.token,
        accessTokenExpiresAt: new Date(accessToken.expiresAt),
        refreshToken: refreshToken.token,
        refreshTokenExpiresAt: new Date(refreshToken.expiresAt),
    };
}

/** The stored session with its expiry times as Dates, or null when absent or unreadable. */
export function loadSession(): Session | null {
    const raw = localStorage.getItem(SESSION_KEY);
    if (!raw) return null;
    try {
        const stored = JSON.parse(raw) as Record<string, unknown>;
        const accessTokenExpiresAt = toDate(stored.accessTokenExpiresAt);
        const refreshTokenExpiresAt = toDate(stored.refreshTokenExpiresAt);
        if (
            typeof stored.accessToken !== 'string' ||
            typeof stored.refreshToken !== 'string' ||
            !accessTokenExpiresAt ||
            !refreshTokenExpiresAt
        ) {
            return null;
        }
        return {
            accessToken: stored.accessToken,
            accessTokenExpiresAt,
            refreshToken: stored.refreshToken,
            refreshTokenExpiresAt,
        };
    } catch {
        return null;
    }
}

export function saveSession(session: Session): void {
    localStorage.setItem(SESSION_KEY, JSON.stringify(session));
}

// The current user lives in memory only: it is empty until set, and reloaded from /users/me after a page load.
let currentUser: User | null = null;

export function getUser(): User | null {
    return currentUser;
}

export function setUser(user: User | null): void {
    currentUser = user;
}

// Bumped whenever the session ends, so a user request started for an older session cannot set the user.
let generation = 0;

// A reload or a navigation away aborts the user request in flight. That failure says nothing about the session,
// which the next page goes on with, so it must not end it (it did, and a quick reload signed the operator out).
let leaving = false;
if (typeof window !== 'undefined') {
    window.addEventListener('pagehide', () => (leaving = true));
    window.addEventListener('pageshow', () => (leaving = false));
    // beforeunload comes first but a navigation may still not happen (stopped, a download): a page still here a
    // few seconds later is not leaving.
    window.addEventListener('beforeunload', () => {
        leaving = true;
        setTimeout(() => (leaving = false), 3000);
    });
}
let loadingUser: Promise<User> | null = null;

/** Ends the session: removes the stored tokens and forgets the user. */
export function clearSession(): void {
    localStorage.removeItem(SESSION_KEY);
    currentUser = null;
    loadingUser = null;
    generation++;
}

/** A token is expired when its expiry is not later than now (spec §4). */
export function isExpired(expiresAt: Date, now: number = Date.now()): boolean {
    return !(expiresAt.getTime() > now);
}

let refreshing: Promise<Session> | null = null;

async function doRefresh(): Promise<Session> {
    const session = loadSession();
    if (!session || isExpired(session.refreshTokenExpiresAt)) {
        clearSession();
        throw new HttpError(LOGIN_FAILED, 401, null);
    }
    const response = await request<LoginResponse>('/refresh', { method: 'POST', token: session.refreshToken });
    // An unreachable server says nothing about the tokens: keep them for the next attempt.
    if (response.networkError) {
        throw new HttpError(messageOf(response.json) ?? LOGIN_FAILED, 500, response.json);
    }
    const next = response.ok ? sessionFromResponse(response.json) : null;
    if (!next) {
        clearSession();
        throw new HttpError(LOGIN_FAILED, response.status >= 400 ? response.status : 401, response.json);
    }
    saveSession(next);
    return next;
}

/**
 * Exchanges the refresh token for a new pair (rotation: both tokens are replaced). Concurrent callers share
 * one request, since a rotated refresh token cannot be used twice.
 */
export function refreshSession(): Promise<Session> {
    if (!refreshing) {
        refreshing = doRefresh().finally(() => {
            refreshing = null;
        });
    }
    return refreshing;
}

/** The access token to send, refreshed first when expired; null when signed out. */
export async function getAccessToken(): Promise<string | null> {
    const session = loadSession();
    if (!session) return null;
    if (!isExpired(session.accessTokenExpiresAt)) return session.accessToken;
    return (await refreshSession()).accessToken;
}

/**
 * An API call with the access token. A 401 on a token the server no longer accepts (revoked, clock skew)
 * gets one refresh and one retry; a second 401 is passed on, and react-admin's checkError then signs out.
 */
export async function authRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    const token = await getAccessToken();
    let response = await request<T>(path, { ...options, token });
    if (response.status === 401 && token) {
        const session = loadSession();
        try {
            const fresh = session && session.accessToken !== token ? session : await refreshSession();
            response = await request<T>(path, { ...options, token: fresh.accessToken });
        } catch {
            // keep the 401
        }
    }
    return assertOk(response);
}

export const FETCH_USER_FAILED = 'Failed to fetch user data';

async function fetchCurrentUser(): Promise<User> {
    const { json } = await authRequest<User>('/users/me');
    if (!json || typeof json !== 'object' || !('id' in json)) throw new Error(FETCH_USER_FAILED);
    return json;
}

/**
 * The signed-in user, loaded once per page load (concurrent callers share the request). If a token exists
 * but the user cannot be loaded, the session ends.
 */
export function ensureUser(): Promise<User> {
    if (currentUser) return Promise.resolve(currentUser);
    if (!loadingUser) {
        const started = generation;
        const loading: Promise<User> = fetchCurrentUser()
            .then((user) => {
                if (started !== generation) throw new Error(FETCH_USER_FAILED);
                currentUser = user;
                return user;
            })
            .catch((error: unknown) => {
                if (started === generation && !leaving) clearSession();
                throw error;
            })
            .finally(() => {
                if (loadingUser === loading) loadingUser = null;
            });
        loadingUser = loading;
    }
    return loadingUser;
}
