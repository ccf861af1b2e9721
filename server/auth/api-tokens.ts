import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { apiTokens, companies, users } from '../db/schema';
import type { Actor } from './actor';
import { liveActor, userDecisionColumns } from './user-decision';

/** API tokens look like `nmt_<43 characters>`, so they are told from session tokens (JWTs) at a glance. */
export const API_TOKEN_PREFIX = 'nmt_';
/** last_used_at is written at most this often per token, so a busy script does not write on every request. */
const USED_WRITE_MS = 60_000;

export const hashApiToken = (token: string) => createHash('sha256').update(token).digest('hex');
export const newApiToken = () => `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;

const lastWritten = new Map<number, number>();

/**
 * The user behind an API token, as long as the token and the user are both still good: not expired, the user
 * active and their password unchanged since (token_version), their company active. Null otherwise.
 */
export async function actorFromApiToken(app: FastifyInstance, token: string): Promise<Actor | null> {
    const [row] = await app.ctx.db
        .select({
            tokenId: apiTokens.id,
            scope: apiTokens.scope,
            expiresAt: apiTokens.expiresAt,
            version: apiTokens.userTokenVersion,
            ...userDecisionColumns,
        })
        .from(apiTokens)
        .innerJoin(users, eq(users.id, apiTokens.userId))
        .leftJoin(companies, eq(companies.id, users.companyId))
        .where(eq(apiTokens.tokenHash, hashApiToken(token)))
        .limit(1);
    const actor = liveActor(row, row?.version ?? -1);
    if (!row || !actor) return null;
    if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return null;
    const now = Date.now();
    if (now - (lastWritten.get(row.tokenId) ?? 0) > USED_WRITE_MS) {
        lastWritten.set(row.tokenId, now);
        if (lastWritten.size > 10_000) lastWritten.clear();
        await app.ctx.db
            .update(apiTokens)
            .set({ lastUsedAt: new Date(now) })
            .where(eq(apiTokens.id, row.tokenId));
    }
    return { ...actor, apiToken: { id: row.tokenId, scope: row.scope } };
}
