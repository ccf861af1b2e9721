import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearer } from '../auth/guard';
import { ApiError } from '../errors';
import { createPrometheus } from '../metrics/prometheus';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * GET /metrics for Prometheus, behind the bearer token METRICS_TOKEN; without one configured the page does not
 * exist (404), so an install that never asked for it exposes nothing.
 */
export const prometheusRoutes: FastifyPluginAsyncZod = async (app) => {
    const expected = app.ctx.config.metricsToken;
    if (!expected) return;
    const page = createPrometheus(app.ctx);
    app.get('/metrics', async (req, reply) => {
        const given = bearer(req);
        // Compared as digests: equal lengths for timingSafeEqual, and no timing hint of the token's length.
        if (!given || !timingSafeEqual(digest(given), digest(expected))) {
            reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
            throw new ApiError(401, 'A valid METRICS_TOKEN bearer token is required');
        }
        return reply.type(page.contentType).send(await page.render());
    });
};
