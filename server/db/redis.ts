/**
 * Connection options for the cluster's Redis (REDIS_URL, `redis://[user:password@]host:port/db`), for ioredis and
 * BullMQ; BullMQ's workers need `maxRetriesPerRequest: null`.
 */
export function redisConnection(url: string) {
    const u = new URL(url);
    return {
        host: u.hostname,
        port: Number(u.port || 6379),
        db: Number(u.pathname.slice(1) || 0),
        username: u.username ? decodeURIComponent(u.username) : undefined,
        password: u.password ? decodeURIComponent(u.password) : undefined,
        tls: u.protocol === 'rediss:' ? {} : undefined,
        maxRetriesPerRequest: null,
    };
}

/**
 * For a client that requests wait on (shared state, the worker list, log tickets): a command fails after this long
 * rather than waiting in the offline queue until Redis is back, so a request answers (a 503 that says so) while Redis
 * is down or restarting; ioredis's retries alone let the wait grow with its reconnection backoff, to tens of seconds.
 */
export const REQUEST_WAIT_MS = 2000;

export function requestPathConnection(url: string) {
    return { ...redisConnection(url), commandTimeout: REQUEST_WAIT_MS };
}

/** What ioredis throws when Redis is down or does not answer in time, as against an error Redis answered. */
export function isRedisUnavailable(err: unknown): boolean {
    if (!(err instanceof Error)) return false;
    return (
        err.name === 'MaxRetriesPerRequestError' ||
        err.message === 'Command timed out' ||
        err.message === 'Connection is closed.' ||
        err.message.startsWith("Stream isn't writeable")
    );
}
