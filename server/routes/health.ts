import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { failureSentence } from '../db/outage';

/**
 * Public liveness: ok when the database answers, writes have not been failing since the last one that worked, and,
 * where it is enabled, the engine runs on time and the outbox drains. A failing database is named with its reason,
 * beside `status`; the engine's figures come along so a probe can tell a slow console from a dead one.
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
        if (!app.ctx.config.engineEnabled) return { status: 'ok' };
        let watched: Awaited<ReturnType<typeof app.ctx.watchdog.health>>;
        try {
            watched = await app.ctx.watchdog.health();
        } catch {
            return reply.status(503).send({ status: 'unavailable', message: 'Database is not answering' });
        }
        const { ok, problem, ...engine } = watched;
        if (!ok) return reply.status(503).send({ status: 'unavailable', message: problem, engine });
        return { status: 'ok', engine };
    });
};
