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
