/**
 * react-query retry policy for our queries: a 4xx (not found, forbidden, invalid) is an answer, not a
 * glitch, so it is never retried; anything else is retried once.
 */
export function retryUnlessClientError(failureCount: number, error: unknown): boolean {
    const status = (error as { status?: unknown } | null)?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) return false;
    return failureCount < 1;
}
