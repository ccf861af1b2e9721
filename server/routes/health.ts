import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { failureSentence } from '../db/outage';

/**
 * Public liveness: ok when the database answers, writes have not been failing since the last one that worked, and,
 * where it is enabled, the engine runs. A failing database is named with its reason, beside `status`.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
    app.get('/api/health', async (_req, reply) => {
        const health = app.ctx.dbHealth;
        try {
            await app.ctx.db.execute(sql`select 1`);
            health.succeeded('read');
        } catch (err) {
            if (!health.failed(err, 'the health check')) {
                const message = 'Database is not answering';
                return reply
                    .status(503)
                    .send({ status: 'unavailable', message, database: { status: 'failing', message } });
            }
        }
        const failure = health.failure;
        if (failure) {
            const message = failureSentence(failure);
            return reply.status(503).send({
                status: 'unavailable',
                message,
                database: { status: 'failing', message, since: failure.since.toISOString() },
            });
        }
        if (app.ctx.config.engineEnabled && app.ctx.engine && !app.ctx.engine.running) {
            return reply.status(503).send({ status: 'unavailable', message: 'The monitoring engine is not running' });
        }
        return { status: 'ok' };
    });
};
