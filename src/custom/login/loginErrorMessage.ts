import { LOGIN_FAILED } from '../../providers/session';

/**
 * The toast for a failed sign-in (docs/spec.md §8): the server's message when it sent one, 'Login failed' for a
 * refused login without one, otherwise the error's own text ('Failed to fetch user data'), else 'Failed to log in'.
 */
export function loginErrorMessage(error: unknown): string {
    const body = (error as { body?: { message?: unknown } } | null)?.body;
    if (body && typeof body.message === 'string' && body.message) return body.message;
    const message = error instanceof Error ? error.message : '';
    if (message === LOGIN_FAILED) return 'Login failed';
    return message || 'Failed to log in';
}
