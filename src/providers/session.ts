import { HttpError } from 'react-admin';

import type { User } from '../../common/entities';
import { assertOk, type HttpResponse, messageOf, type RequestOptions, request } from './httpClient';

/** localStorage key of the session (docs/spec.md §3). */
export const SESSION_KEY = 'securityTokens';
export const LOGIN_FAILED = 'Failed to log in!';
/** Where the sign-in page finds why the session ended (this tab's in sessionStorage, the last one in localStorage). */
export const ENDED_KEY = 'sessionEnded';
/** Set in a tab that has had a session: only such a tab is told that it ended elsewhere. */
const SEEN_KEY = 'sessionSeen';
export const SESSION_EXPIRED = 'Session expired, please sign in again';
export const SIGNED_OUT_ELSEWHERE = 'You were signed out (in another tab or window), please sign in again';

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
        sessionStorage.setItem(SEEN_KEY, '1');
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
    sessionStorage.setItem(SEEN_KEY, '1');
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

/** Ends the session for a reason the sign-in page shows, here and in the browser's other tabs that had it. */
export function endSession(reason: string): void {
    sessionStorage.setItem(ENDED_KEY, reason);
    localStorage.setItem(ENDED_KEY, reason);
    clearSession();
}

/** Signing out in this tab: nothing to explain here, but the other tabs say they were signed out. */
export function signOut(): void {
    sessionStorage.removeItem(ENDED_KEY);
    sessionStorage.removeItem(SEEN_KEY);
    localStorage.setItem(ENDED_KEY, SIGNED_OUT_ELSEWHERE);
    clearSession();
}

/** A new sign-in: no reason left to show. */
export function forgetEndedReason(): void {
    sessionStorage.removeItem(ENDED_KEY);
    localStorage.removeItem(ENDED_KEY);
}

/**
 * Why this tab's last session ended, for the sign-in page: ended here, or (in a tab that had one) ended by another
 * tab; null after a sign-out here or in a tab that never had a session.
 */
export function endedReason(): string | null {
    const here = sessionStorage.getItem(ENDED_KEY);
    if (here) return here;
    if (!sessionStorage.getItem(SEEN_KEY) || localStorage.getItem(SESSION_KEY)) return null;
    return localStorage.getItem(ENDED_KEY) ?? SIGNED_OUT_ELSEWHERE;
}

/** A token is expired when its expiry is not later than now (docs/spec.md §4). */
export function isExpired(expiresAt: Date, now: number = Date.now()): boolean {
    return !(expiresAt.getTime() > now);
}

let refreshing: Promise<Session> | null = null;

const REFRESH_LOCK = 'node-monitor-refresh';

/**
 * Runs a refresh under a lock all of this browser's tabs share (Web Locks), so one tab refreshes and the others
 * then read its new pair. Web Locks exist only in secure contexts (https, localhost); elsewhere the server's grace
 * for a just-rotated token keeps two tabs' simultaneous refreshes signed in.
 */
function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    return locks ? locks.request(REFRESH_LOCK, work) : work();
}

async function doRefresh(rejected: string | undefined): Promise<Session> {
    const session = loadSession();
    // Another tab refreshed while this one waited for the lock: its new pair serves this tab too.
    if (session && session.accessToken !== rejected && !isExpired(session.accessTokenExpiresAt)) return session;
    if (!session || isExpired(session.refreshTokenExpiresAt)) {
        endSession(SESSION_EXPIRED);
        throw new HttpError(LOGIN_FAILED, 401, null);
    }
    const response = await request<LoginResponse>('/refresh', { method: 'POST', token: session.refreshToken });
    // An unreachable server says nothing about the tokens: keep them for the next attempt.
    if (response.networkError) {
        throw new HttpError(messageOf(response.json) ?? LOGIN_FAILED, 500, response.json);
    }
    const next = response.ok ? sessionFromResponse(response.json) : null;
    if (!next) {
        endSession(messageOf(response.json) ?? SESSION_EXPIRED);
        throw new HttpError(LOGIN_FAILED, response.status >= 400 ? response.status : 401, response.json);
    }
    saveSession(next);
    return next;
}

/**
 * Exchanges the refresh token for a new pair (rotation: both tokens are replaced), unless another tab already did:
 * `rejected` is the access token found expired or refused. Concurrent callers share one request, since a rotated
 * refresh token cannot be used twice.
 */
export function refreshSession(rejected?: string): Promise<Session> {
    if (!refreshing) {
        refreshing = withRefreshLock(() => doRefresh(rejected)).finally(() => {
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
    return (await refreshSession(session.accessToken)).accessToken;
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
            const fresh = session && session.accessToken !== token ? session : await refreshSession(token);
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
