/** Date and time in the browser's locale; N/A when missing or unreadable. */
export function formatDateTime(value: string | null | undefined): string {
    if (!value) return 'N/A';
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? 'N/A' : date.toLocaleString();
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
