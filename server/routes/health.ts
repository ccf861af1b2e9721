import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { failureSentence } from '../db/outage';
import { HEALTH_REUSE_MS, recentRead } from '../db/recent-read';
import { timestamp } from './responses/answers';

/** The engine's figures (engine/watchdog.ts), present where the engine runs. */
const engineFigures = z.object({
    lag_p99_ms: z.number(),
    outbox_backlog: z.number().int(),
    oldest_undelivered_seconds: z.number().nullable(),
});

/** The live processes that run checks, where this process runs them or belongs to a cluster (REDIS_URL). */
const workers = z
    .array(
        z.object({
            id: z.string(),
            pid: z.number().int(),
            host: z.string(),
            started_at: timestamp,
            last_seen_at: timestamp,
        })
    )
    .optional();

const NO_WORKER = 'No worker process is alive: no check runs and no notification is sent';

const healthy = z.object({ status: z.literal('ok'), engine: engineFigures.optional(), workers });
const unhealthy = z
    .object({
        status: z.literal('unavailable'),
        message: z.string().nullable(),
        database: z
            .object({ status: z.literal('failing'), message: z.string(), since: timestamp.optional() })
            .optional(),
        engine: engineFigures.optional(),
        workers,
    })
    .describe('The database is failing, the engine has stalled or no worker is alive');

/**
 * Public liveness: ok when the database answers, writes have not been failing since the last one that worked, and,
 * where it is enabled, the engine runs on time and the outbox drains. A failing database is named with its reason,
 * beside `status`; the engine's figures come along so a probe can tell a slow console from a dead one.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
    const dbAnswers = recentRead(HEALTH_REUSE_MS, () => app.ctx.db.execute(sql`select 1`));
    // In the cluster profile the list is a SCAN of Redis: one per second answers every prober.
    const workersAlive = recentRead(HEALTH_REUSE_MS, () => app.ctx.workers.live());
    app.get('/api/health', { schema: { response: { 200: healthy, 503: unhealthy } } }, async (_req, reply) => {
        const health = app.ctx.dbHealth;
        try {
            if (health.failure) {
                // Only a read made now may tell that a failure seen by the API or a loop is over.
                await dbAnswers.fresh();
                health.succeeded('read');
            } else await dbAnswers.get();
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
        const { config } = app.ctx;
        let alive: z.infer<typeof workers>;
        if (config.redisUrl || config.engineEnabled) {
            try {
                alive = await workersAlive.get();
            } catch {
                return reply.status(503).send({ status: 'unavailable', message: 'Redis is not answering' });
            }
            if (config.redisUrl && alive.length === 0)
                return reply.status(503).send({ status: 'unavailable', message: NO_WORKER, workers: alive });
        }
        if (!config.engineEnabled) return { status: 'ok' as const, workers: alive };
        let watched: Awaited<ReturnType<typeof app.ctx.watchdog.health>>;
        try {
            watched = await app.ctx.watchdog.health();
        } catch {
            return reply.status(503).send({ status: 'unavailable', message: 'Database is not answering' });
        }
        const { ok, problem, ...engine } = watched;
        if (!ok) return reply.status(503).send({ status: 'unavailable', message: problem, engine, workers: alive });
        return { status: 'ok' as const, engine, workers: alive };
    });
};
