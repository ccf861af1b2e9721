import { and, asc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hashApiToken, newApiToken } from '../auth/api-tokens';
import { apiTokens, users } from '../db/schema';
import { forbidden, notFound } from '../errors';
import { nameField } from '../validation/fields';
import { mutate } from './mutate';
import { answers, timestamp } from './responses/answers';
import { idParams } from '../validation/schemas';

const SCOPES = ['read', 'write'] as const;
/** A token as listed: never its secret. */
const listedToken = z.object({
    id: z.number().int(),
    name: z.string(),
    scope: z.enum(SCOPES),
    expires_at: timestamp.nullable(),
    last_used_at: timestamp.nullable(),
    created_at: timestamp,
});
/** The answer of a create: the secret `token`, shown this once. */
const issuedToken = listedToken
    .pick({ id: true, name: true, scope: true, expires_at: true })
    .extend({ token: z.string() });

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const toToken = (r: { expires_at: Date | null; last_used_at: Date | null; created_at: Date } & object) => ({
    ...r,
    expires_at: iso(r.expires_at),
    last_used_at: iso(r.last_used_at),
    created_at: r.created_at.toISOString(),
});

const tokenBody = z.strictObject({
    name: nameField(),
    scope: z.enum(SCOPES, { error: 'scope must be read or write' }),
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
    app.get('/api/tokens', { schema: { response: answers({ 200: z.array(listedToken) }, 401, 403) } }, async (req) =>
        (
            await app.ctx.db
                .select(columns)
                .from(apiTokens)
                .where(eq(apiTokens.userId, req.actor.id))
                .orderBy(asc(apiTokens.id))
        ).map(toToken)
    );

    app.post(
        '/api/tokens',
        { schema: { body: tokenBody, response: answers({ 201: issuedToken }, 400, 401, 403) } },
        async (req, reply) => {
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
                .send({ id: row.id, name: row.name, scope: row.scope, expires_at: iso(row.expires_at), token });
        }
    );

    const deleteSchema = { params: idParams, response: answers({ 200: listedToken }, 400, 401, 403, 404) };
    app.delete('/api/tokens/:id', { schema: deleteSchema }, async (req) =>
        toToken(
            await mutate(app, req, async (tx) => {
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
        )
    );
};
