import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * Public liveness: ok when the database answers and, where it is enabled, the engine runs on time and the outbox
 * drains; the engine's figures come along so a probe can tell a slow console from a dead one.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
    app.get('/api/health', async (_req, reply) => {
        try {
            await app.ctx.db.execute(sql`select 1`);
        } catch {
            return reply.status(503).send({ status: 'unavailable', message: 'Database is not answering' });
        }
        if (!app.ctx.config.engineEnabled) return { status: 'ok' };
        let health: Awaited<ReturnType<typeof app.ctx.watchdog.health>>;
        try {
            health = await app.ctx.watchdog.health();
        } catch {
            return reply.status(503).send({ status: 'unavailable', message: 'Database is not answering' });
        }
        const { ok, problem, ...engine } = health;
        if (!ok) return reply.status(503).send({ status: 'unavailable', message: problem, engine });
        return { status: 'ok', engine };
    });
};
