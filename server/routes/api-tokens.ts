import { and, asc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hashApiToken, newApiToken } from '../auth/api-tokens';
import { apiTokens, users } from '../db/schema';
import { forbidden, notFound } from '../errors';
import { nameField } from './fields';
import { mutate } from './mutate';
import { idParams } from './schemas';

const tokenBody = z.strictObject({
    name: nameField(),
    scope: z.enum(['read', 'write'], { error: 'scope must be read or write' }),
    expires_at: z.iso
        .datetime({ offset: true, error: 'expires_at must be an ISO date and time' })
        .nullable()
        .optional()
        .refine((v) => !v || Date.parse(v) > Date.now(), 'expires_at must be in the future'),
});

const columns = {
    id: apiTokens.id,
    name: apiTokens.name,
    scope: apiTokens.scope,
    expires_at: apiTokens.expiresAt,
    last_used_at: apiTokens.lastUsedAt,
    created_at: apiTokens.createdAt,
};

/** Managing tokens needs a signed-in session: a leaked token must not be able to mint more. */
async function requireSession(req: FastifyRequest): Promise<void> {
    if (req.actor?.apiToken) throw forbidden('API tokens cannot manage API tokens; sign in to the console');
}

/**
 * The caller's own API tokens: POST /api/tokens answers the secret `token` once, GET /api/tokens lists them without
 * it, DELETE /api/tokens/{id} ends one. Another user's token answers 404.
 */
export const apiTokenRoutes: FastifyPluginAsyncZod = async (app) => {
    app.addHook('onRequest', requireSession);
    app.get('/api/tokens', async (req) =>
        app.ctx.db.select(columns).from(apiTokens).where(eq(apiTokens.userId, req.actor.id)).orderBy(asc(apiTokens.id))
    );

    app.post('/api/tokens', { schema: { body: tokenBody } }, async (req, reply) => {
        const token = newApiToken();
        const row = await mutate(app, req, async (tx) => {
            const [user] = await tx
                .select({ tokenVersion: users.tokenVersion })
                .from(users)
                .where(eq(users.id, req.actor.id));
            const [created] = await tx
                .insert(apiTokens)
                .values({
                    userId: req.actor.id,
                    name: req.body.name,
                    scope: req.body.scope,
                    tokenHash: hashApiToken(token),
                    userTokenVersion: user?.tokenVersion ?? 0,
                    expiresAt: req.body.expires_at ? new Date(req.body.expires_at) : null,
                })
                .returning(columns);
            if (!created) throw new Error('The token was not stored');
            return {
                result: created,
                change: {
                    event: 'API_TOKEN_CREATED',
                    message: `API token "${created.name}" (${created.scope}) created by ${req.actor.username}`,
                    companyId: req.actor.companyId,
                },
            };
        });
        return reply
            .status(201)
            .send({ id: row.id, name: row.name, scope: row.scope, expires_at: row.expires_at, token });
    });

    app.delete('/api/tokens/:id', { schema: { params: idParams } }, async (req) =>
        mutate(app, req, async (tx) => {
            const [gone] = await tx
                .delete(apiTokens)
                .where(and(eq(apiTokens.id, req.params.id), eq(apiTokens.userId, req.actor.id)))
                .returning(columns);
            if (!gone) throw notFound('API token');
            return {
                result: gone,
                change: {
                    event: 'API_TOKEN_DELETED',
                    message: `API token "${gone.name}" deleted by ${req.actor.username}`,
                    companyId: req.actor.companyId,
                },
            };
        })
    );
};
