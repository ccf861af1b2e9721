import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';

declare module 'fastify' {
    interface FastifyInstance {
        /** Counts the writes made through the API: what is kept in memory from before one must not be served. */
        writes: { generation: number };
    }
}

/** The cluster's count of writes through the API, every `web` process's together. */
const CLUSTER_WRITES = 'node-monitor:api-writes';

/**
 * Bumps the count before a write's answer leaves, so a client that reads right after it never gets older data.
 * In the cluster profile (`redis` given) the write is also counted in Redis before its answer leaves, and every
 * request first reads that count: a request that finds it moved since this process last looked bumps this
 * process's count, so an answer kept here (answer-cache.ts, the guard's memory of tokens) from before a write made
 * through another `web` process is not served either. A Redis that does not answer counts as a write: nothing
 * kept is served meanwhile.
 */
export function registerWriteGeneration(app: FastifyInstance, redis: Redis | null = null): void {
    const writes = { generation: 0 };
    app.decorate('writes', writes);
    app.addHook('onSend', async (req, _reply, payload) => {
        // The guard sets the actor on API routes only, whatever spelling of the path the router decoded
        // (`/%61pi/…` reaches them too), so the actor, not the raw URL, tells an API write.
        if (req.method !== 'GET' && req.method !== 'HEAD' && req.actor) {
            writes.generation++;
            await redis?.incr(CLUSTER_WRITES).catch(() => {});
        }
        return payload;
    });
    if (!redis) return;
    let seen: string | null = null;
    app.addHook('onRequest', async () => {
        // Not connected: counted as a write at once, rather than every request waiting for the command to time out.
        const now = redis.status === 'ready' ? await redis.get(CLUSTER_WRITES).catch(() => undefined) : undefined;
        if (now === undefined || now !== seen) {
            seen = now ?? null;
            writes.generation++;
        }
    });
}
