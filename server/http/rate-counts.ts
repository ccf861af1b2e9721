import type { FastifyInstance } from 'fastify';

/**
 * Where @fastify/rate-limit keeps its counts: in the cluster profile in Redis, so an address or a user gets the same
 * budget however many `web` processes a load balancer spreads its requests over; else in this process.
 */
export function rateCounts(app: FastifyInstance) {
    const redis = app.ctx.sharedState.redis;
    return redis ? { redis, nameSpace: 'node-monitor:rate:' } : {};
}
