import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearer } from '../auth/guard';
import { getUser } from '../repositories/users';
import { login, logout, refresh } from '../services/sessions';
import { answers, noContent } from './responses/answers';
import { user } from './responses/entities';
import { rateCounts } from '../http/rate-counts';

const token = z.object({ token: z.string(), expiresAt: z.string().meta({ format: 'date-time' }) });
/** Spec §7: what login and refresh answer. */
const session = z.object({ accessToken: token, refreshToken: token });

const loginBody = z.object({
    username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(256),
    password: z
        .string({ error: 'Password is required' })
        .min(1, 'Password is required')
        .max(1024, 'Password is too long'),
});

/** POST /api/login, POST /api/refresh, GET /api/users/me (docs/spec.md §7); POST /api/logout ends the sign-in. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
    await app.register(rateLimit, { global: false, ...rateCounts(app) });
    const limit = {
        max: app.ctx.config.loginRateLimitPerMinute,
        timeWindow: 60_000,
        keyGenerator: (req: { ip?: string }) => req.ip ?? 'local',
        errorResponseBuilder: (_req: unknown, ctx: { after: string }) => ({
            statusCode: 429,
            message: `Too many attempts, try again in ${ctx.after}`,
        }),
    };
    app.post(
        '/api/login',
        {
            schema: { body: loginBody, response: answers({ 200: session }, 400, 401, 429) },
            bodyLimit: 8192,
            config: { rateLimit: limit },
        },
        async (req) => login(app.ctx, req.body.username, req.body.password, req.ip)
    );
    app.post(
        '/api/refresh',
        { schema: { response: answers({ 200: session }, 401, 429) }, bodyLimit: 8192, config: { rateLimit: limit } },
        async (req) => refresh(app.ctx, bearer(req), req.ip)
    );
    app.post(
        '/api/logout',
        { schema: { response: answers({ 204: noContent }, 401, 429) }, bodyLimit: 8192, config: { rateLimit: limit } },
        async (req, reply) => {
            await logout(app.ctx, bearer(req), req.ip);
            return reply.status(204).send(null);
        }
    );
    app.get('/api/users/me', { schema: { response: answers({ 200: user }, 401) } }, async (req) =>
        getUser(app.ctx.db, req.actor.id)
    );
};
