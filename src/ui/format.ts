/** Date and time in the browser's locale; N/A when missing or unreadable. */
export function formatDateTime(value: string | null | undefined): string {
    if (!value) return 'N/A';
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? 'N/A' : date.toLocaleString();
}

/**
 * Date and time in UTC, named: '2024-05-01 10:00:00 UTC', as the server writes times into audit sentences, so an
 * entry's time and the times in its text read alike; N/A when missing or unreadable.
 */
export function formatUtc(value: string | null | undefined): string {
    if (!value) return 'N/A';
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? 'N/A' : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Date only, in the browser's locale; N/A when missing or unreadable. */
export function formatDate(value: string | null | undefined): string {
    if (!value) return 'N/A';
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? 'N/A' : date.toLocaleDateString();
}

/** The reason of a failed call, for "Failed to …: <reason>" toasts. */
export function errorReason(error: unknown): string {
    if (error instanceof Error && error.message) return error.message;
    if (typeof error === 'string' && error) return error;
    return 'Unknown error';
}

/** The `message` the server answered with, if any (docs/spec.md §8: "where the server returns a message field…"). */
export function serverMessage(error: unknown): string | null {
    const body = (error as { body?: unknown } | null)?.body;
    const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
    return typeof message === 'string' && message.trim() !== '' ? message.trim() : null;
}

/** A spec failure text followed by the server's reason: `Failed to create user: Username "alice" is taken`. */
export function withServerMessage(text: string, error: unknown): string {
    const message = serverMessage(error);
    if (!message) return text;
    return /[.!:]$/.test(text) ? `${text} ${message}` : `${text}: ${message}`;
}
