import { eq, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { companies, refreshTokens, users } from '../db/schema';
import { ApiError, forbidden } from '../errors';
import type { Actor } from './actor';
import { API_TOKEN_PREFIX, actorFromApiToken } from './api-tokens';
import { canWrite } from './actor';
import { liveActor, userDecisionColumns } from './user-decision';
import { onRevocation } from '../services/sessions';
import { type AccessClaims, verifyAccessToken } from './tokens';

/**
 * Routes that answer without an access token: refresh and logout take the refresh token, the log socket checks its
 * own ticket (browsers cannot send headers on a WebSocket); the API documents (/api/openapi.json, /api/docs/…)
 * describe the API and hold no data.
 */
const PUBLIC = new Set(['/api/login', '/api/refresh', '/api/logout', '/api/health', '/api/logs', '/api/openapi.json']);

/** Resolves a bearer access token to an active user of an active company, or null. */
export async function actorFromToken(app: FastifyInstance, token: string | undefined): Promise<Actor | null> {
    if (!token) return null;
    const claims = await verifyAccessToken(app.ctx.keys.accessToken, token);
    return claims ? actorFromClaims(app, claims) : null;
}

/**
 * The actor behind verified claims, or null once the session is over: user disabled or its token version bumped,
 * company inactive, or the refresh family the token came from revoked (logout, reuse) or expired.
 */
export async function actorFromClaims(app: FastifyInstance, claims: AccessClaims): Promise<Actor | null> {
    const [row] = await app.ctx.db
        .select({
            ...userDecisionColumns,
            familyLive: sql<boolean>`exists (select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${claims.familyId} and ${refreshTokens.userId} = ${users.id} and ${refreshTokens.familyExpiresAt} > ${new Date().toISOString()}::timestamptz)`,
        })
        .from(users)
        .leftJoin(companies, eq(companies.id, users.companyId))
        .where(eq(users.id, claims.userId))
        .limit(1);
    return row?.familyLive ? liveActor(row, claims.tokenVersion) : null;
}

export function bearer(req: FastifyRequest): string | undefined {
    const header = req.headers.authorization;
    return header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
}

/**
 * Guards every /api route but the public ones. The decision is made on the route the router matched, not on the
 * raw URL: the router decodes percent-escapes (`/%61pi/chains` reaches `/api/chains`), the raw URL does not.
 * Unmatched /api paths also need a session, so the 404 answer tells an anonymous caller nothing.
 */
export function registerAuthGuard(app: FastifyInstance, rememberMs: number): void {
    app.decorateRequest('actor', null as unknown as Actor);
    const resolve = rememberMs > 0 ? rememberedActors(app, rememberMs) : (token?: string) => actorFromToken(app, token);
    app.addHook('onRequest', async (req) => {
        const path = req.routeOptions.url ?? req.url.split('?')[0] ?? '';
        // `/api/public/` holds the status pages' answers for visitors (routes/public-status.ts).
        if (
            !path.startsWith('/api/') ||
            PUBLIC.has(path) ||
            path.startsWith('/api/docs') ||
            path.startsWith('/api/public/')
        )
            return;
        const token = bearer(req);
        const actor = token?.startsWith(API_TOKEN_PREFIX) ? await actorFromApiToken(app, token) : await resolve(token);
        if (!actor) throw new ApiError(401, 'Authentication required');
        if (actor.apiToken?.scope === 'read' && req.method !== 'GET' && req.method !== 'HEAD')
            throw forbidden('This API token is read-only');
        req.actor = actor;
    });
}

/**
 * The user row behind a token, remembered for `rememberMs` and forgotten at any write through the API: a console
 * polls several lists at once, and each read of the row waited behind the engine's writes on the one PGlite
 * connection. Disabling a user, changing a password, a role or a company are API writes, so they still end a
 * session at once; a change made outside the API (another process) takes effect within `rememberMs`.
 */
function rememberedActors(app: FastifyInstance, rememberMs: number) {
    const known = new Map<string, { actor: Actor; at: number; generation: number; expiresAt: number }>();
    // A revocation (logout, refresh reuse, a user or company disabled) ends the tokens it covers at once.
    onRevocation(app.ctx, () => known.clear());
    return async (token: string | undefined): Promise<Actor | null> => {
        if (!token) return null;
        const hit = known.get(token);
        const now = performance.now();
        if (
            hit &&
            hit.generation === app.writes.generation &&
            now - hit.at < rememberMs &&
            Date.now() < hit.expiresAt
        ) {
            return hit.actor;
        }
        const generation = app.writes.generation;
        const actor = await actorFromToken(app, token);
        if (known.size >= 10_000) known.clear();
        // Verified just now, so its expiry can be read without verifying again.
        if (actor) known.set(token, { actor, at: now, generation, expiresAt: (decodeJwt(token).exp ?? 0) * 1000 });
        else known.delete(token);
        return actor;
    };
}

export async function requireSuperAdmin(req: FastifyRequest): Promise<void> {
    if (!req.actor?.isSuperAdmin) throw forbidden('Only super admins can do this');
}

export async function requireWriter(req: FastifyRequest): Promise<void> {
    if (!req.actor || !canWrite(req.actor)) throw forbidden('Only admins can change this');
}
