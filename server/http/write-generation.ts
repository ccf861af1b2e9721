import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
    interface FastifyInstance {
        /** Counts the writes made through the API: what is kept in memory from before one must not be served. */
        writes: { generation: number };
    }
}

/** Bumps the count before a write's answer leaves, so a client that reads right after it never gets older data. */
export function registerWriteGeneration(app: FastifyInstance): void {
    const writes = { generation: 0 };
    app.decorate('writes', writes);
    app.addHook('onSend', async (req, _reply, payload) => {
        // The guard sets the actor on API routes only, whatever spelling of the path the router decoded
        // (`/%61pi/…` reaches them too), so the actor, not the raw URL, tells an API write.
        if (req.method !== 'GET' && req.method !== 'HEAD' && req.actor) writes.generation++;
        return payload;
    });
}
