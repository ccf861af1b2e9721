import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearer } from '../auth/guard';
import { ApiError } from '../errors';
import { createPrometheus } from '../metrics/prometheus';
import { answers } from './responses/answers';

const page = z.string().describe('The Prometheus text exposition format');

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * GET /metrics for Prometheus, behind the bearer token METRICS_TOKEN; without one configured the page does not
 * exist (404), so an install that never asked for it exposes nothing.
 */
export const prometheusRoutes: FastifyPluginAsyncZod = async (app) => {
    const expected = app.ctx.config.metricsToken;
    if (!expected) return;
    const metrics = createPrometheus(app.ctx);
    const response = { ...answers({}, 401), 200: { content: { 'text/plain': { schema: page } } } };
    app.get('/metrics', { schema: { response } }, async (req, reply) => {
        // Per-monitor state is no business of any cache between Prometheus and the console.
        reply.header('Cache-Control', 'no-store');
        const given = bearer(req);
        // Compared as digests: equal lengths for timingSafeEqual, and no timing hint of the token's length.
        if (!given || !timingSafeEqual(digest(given), digest(expected))) {
            reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
            throw new ApiError(401, 'A valid METRICS_TOKEN bearer token is required');
        }
        return reply.type(metrics.contentType).send(await metrics.render());
    });
};
