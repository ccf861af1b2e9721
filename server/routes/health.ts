import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Public liveness: ok when the database answers and, where it is enabled, the engine runs. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
    app.get('/api/health', async (_req, reply) => {
        try {
            await app.ctx.db.execute(sql`select 1`);
        } catch {
            return reply.status(503).send({ status: 'unavailable', message: 'Database is not answering' });
        }
        if (app.ctx.config.engineEnabled && app.ctx.engine && !app.ctx.engine.running) {
            return reply.status(503).send({ status: 'unavailable', message: 'The monitoring engine is not running' });
        }
        return { status: 'ok' };
    });
};
