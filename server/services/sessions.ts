import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { writeAudit } from '../audit';
import { DUMMY_HASH, hashPassword, needsRehash, verifyPassword } from '../auth/passwords';
import { hashRefreshToken, newRefreshToken, signAccessToken } from '../auth/tokens';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { companies, refreshTokens, users } from '../db/schema';
import type { UserRow } from '../db/schema';
import { ApiError } from '../errors';
import { FAILURE_WINDOW_MS, type FailureRun } from './login-locks';

/** Absolute lifetime of a refresh family: short for admins, longer for read-only users. */
const FAMILY_TTL_ADMIN_MS = 12 * 3600_000;
const FAMILY_TTL_USER_MS = 7 * 24 * 3600_000;
/** After this many failures in a row, each further attempt on the account waits longer (up to MAX_DELAY_MS). */
const FREE_FAILURES = 5;
const MAX_DELAY_MS = 8_000;
const INVALID = 'Invalid username or password';
/**
 * How long a just-rotated refresh token is still accepted from the same address, answered with the pair its
 * rotation issued: two tabs of one browser whose access tokens expired together refresh with the same token.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;

/** Why a sign-in ended, as the next refresh with one of its tokens is told (and the sign-in page says). */
export type EndedReason = 'signed_out' | 'reused' | 'password_changed' | 'account_changed' | 'company_deactivated';

const EXPIRED = 'Session expired, please sign in again';
const ENDED: Record<EndedReason, string> = {
    signed_out: 'You were signed out (in another tab or window), please sign in again',
    reused: 'Your session was ended because its refresh token was used twice (it may have been copied), please sign in again',
    password_changed: 'Your password was changed, please sign in again',
    account_changed: 'Your account was changed by an administrator, please sign in again',
    company_deactivated: 'Your company was deactivated, please sign in again',
};

const endedError = (reason: string | null | undefined) =>
    new ApiError(401, (reason && ENDED[reason as EndedReason]) || EXPIRED);

export interface Session {
    accessToken: { token: string; expiresAt: string };
    refreshToken: { token: string; expiresAt: string };
}

/** What a revocation ended: every session of a user, or one sign-in (refresh family). */
export type Revocation = { userId: number; familyId?: string };

const revocations = new WeakMap<AppContext, EventEmitter>();

function revocationBus(ctx: AppContext): EventEmitter {
    let bus = revocations.get(ctx);
    if (!bus) {
        bus = new EventEmitter();
        bus.setMaxListeners(0);
        revocations.set(ctx, bus);
    }
    return bus;
}

/**
 * Tells listeners (the guard's memory of tokens, open log sockets) the moment a session ends, so nothing that
 * checked the session earlier keeps serving it. Returns the function that unsubscribes.
 */
export function onRevocation(ctx: AppContext, listener: (r: Revocation) => void): () => void {
    const bus = revocationBus(ctx);
    bus.on('revoked', listener);
    return () => bus.off('revoked', listener);
}

function announce(ctx: AppContext, r: Revocation): void {
    revocationBus(ctx).emit('revoked', r);
}

/**
 * This process's revocations, for the cluster profile's relay (assembly/event-relay.ts): a sign-out through one `web`
 * process must close the log sockets another one serves at once, not at their next periodic re-check.
 */
export const revocationsOf = (ctx: AppContext) => ({
    subscribe: (listener: (r: Revocation) => void) => onRevocation(ctx, listener),
    announce: (r: Revocation) => announce(ctx, r),
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function issue(ctx: AppContext, user: UserRow, familyId: string, familyExpiresAt: Date): Promise<Session> {
    const access = await signAccessToken(
        ctx.keys.accessToken,
        { userId: user.id, tokenVersion: user.tokenVersion, familyId },
        ctx.config.accessTokenTtlSeconds
    );
    const refresh = newRefreshToken();
    await ctx.db.insert(refreshTokens).values({
        userId: user.id,
        familyId,
        tokenHash: refresh.hash,
        expiresAt: familyExpiresAt,
        familyExpiresAt,
    });
    return {
        accessToken: { token: access.token, expiresAt: access.expiresAt.toISOString() },
        refreshToken: { token: refresh.token, expiresAt: familyExpiresAt.toISOString() },
    };
}

async function companyActive(ctx: AppContext, companyId: number | null): Promise<boolean> {
    if (companyId === null) return true;
    const [c] = await ctx.db.select({ a: companies.isActive }).from(companies).where(eq(companies.id, companyId));
    return c?.a ?? false;
}

/** Failures of the current run (0 once the last one is more than FAILURE_WINDOW_MS old). */
function recentFailures(row: { failedLogins: number; lastFailedLoginAt: Date | null }, now = Date.now()): number {
    const last = row.lastFailedLoginAt?.getTime();
    return last !== undefined && now - last < FAILURE_WINDOW_MS ? row.failedLogins : 0;
}

/** The account's failure run as it is now, read after hashing so a parallel burst sees the failures counted. */
async function accountRun(ctx: AppContext, userId: number): Promise<FailureRun | null> {
    const [row] = await ctx.db
        .select({ failedLogins: users.failedLogins, lastFailedLoginAt: users.lastFailedLoginAt })
        .from(users)
        .where(eq(users.id, userId));
    return row ?? null;
}

/** One more failure, counted in the database (parallel attempts must not overwrite each other's count). */
async function countFailure(ctx: AppContext, userId: number): Promise<void> {
    const runStart = new Date(Date.now() - FAILURE_WINDOW_MS).toISOString();
    await ctx.db
        .update(users)
        .set({
            failedLogins: sql`case when ${users.lastFailedLoginAt} is null or ${users.lastFailedLoginAt} < ${runStart}::timestamptz then 1 else ${users.failedLogins} + 1 end`,
            lastFailedLoginAt: new Date(),
        })
        .where(eq(users.id, userId));
}

/**
 * One answer for every failure (unknown user, wrong password, inactive, locked), with the same work done for
 * each: a password hash is always verified, against a dummy hash when the user does not exist. Failures slow
 * every attempt on the account down; a lock refuses only the addresses that failed (see LoginLocks).
 */
export async function login(ctx: AppContext, username: string, password: string, ip: string): Promise<Session> {
    const [user] = await ctx.db.select().from(users).where(eq(users.username, username)).limit(1);
    // The locks of this process, or in the cluster profile of all (server/assembly/shared-state.ts).
    const l = ctx.sharedState.loginLocks;
    // No failure on record: the run was never started, or the account was unlocked from the console's host.
    if (user && user.lastFailedLoginAt === null) await l.forget(username);
    const run = user ?? (await l.unknownRun(username));
    const failures = recentFailures(run);
    // A locked address answers without the delay: its answer is decided, and waiting would only tie up the caller.
    if (failures >= FREE_FAILURES && !(await l.locked(username, ip, failures))) {
        await sleep(Math.min(MAX_DELAY_MS, 250 * 2 ** (failures - FREE_FAILURES)));
    }
    const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
    // An unknown user runs the same statements (against id 0, which matches no row), so both answers take as long.
    const now = (await accountRun(ctx, user?.id ?? 0)) ?? (await l.unknownRun(username));
    const locked = await l.locked(username, ip, recentFailures(now));
    if (!user || !ok || locked || !user.isActive || !(await companyActive(ctx, user.companyId))) {
        if (!locked) {
            await countFailure(ctx, user?.id ?? 0);
            if (!user) await l.countUnknown(username);
            await l.count(username, ip);
        }
        await writeAudit(ctx.db, {
            companyId: user?.companyId ?? null,
            actorUserId: user?.id ?? null,
            ip,
            message: `Failed login for user "${username.slice(0, 64)}" from ${ip}${locked ? ' (temporarily locked for this address after repeated failures)' : ''}`,
        });
        throw new ApiError(401, INVALID);
    }
    const patch: Partial<UserRow> = { failedLogins: 0 };
    if (needsRehash(user.passwordHash)) patch.passwordHash = await hashPassword(password);
    await ctx.db.update(users).set(patch).where(eq(users.id, user.id));
    const ttl = user.isAdmin || user.isSuperAdmin ? FAMILY_TTL_ADMIN_MS : FAMILY_TTL_USER_MS;
    return issue(ctx, user, randomUUID(), new Date(Date.now() + ttl));
}

/** A rotation in flight or just done: who asked, when it finished, and the pair it answers. */
interface Rotation {
    ip: string;
    doneAt: number | null;
    session: Promise<Session>;
}

const rotations = new WeakMap<AppContext, Map<string, Rotation>>();

function recentRotations(ctx: AppContext): Map<string, Rotation> {
    let map = rotations.get(ctx);
    if (!map) {
        map = new Map();
        rotations.set(ctx, map);
    }
    const now = Date.now();
    for (const [hash, r] of map) if (r.doneAt !== null && now - r.doneAt >= REFRESH_REUSE_GRACE_MS) map.delete(hash);
    return map;
}

/**
 * Rotates a refresh token; a token presented twice revokes its whole family (it was stolen or replayed), unless it
 * comes again from the same address within REFRESH_REUSE_GRACE_MS of its rotation: that answer is the same new
 * pair, so one browser's simultaneous refreshes keep the sign-in. A refusal names why the sign-in ended.
 */
export async function refresh(ctx: AppContext, token: string | undefined, ip: string): Promise<Session> {
    if (!token) throw endedError(null);
    const hash = hashRefreshToken(token);
    const recent = recentRotations(ctx);
    const previous = recent.get(hash);
    if (previous && previous.ip === ip) {
        const session = await previous.session;
        await assertLive(ctx, session.refreshToken.token);
        return session;
    }
    // Set in the map before anything is awaited, so a second request from here waits for this one. In the cluster
    // profile another `web` process may have rotated it within the grace: its answer is this one's.
    const answer = (async () => (await graceAnswer(ctx, hash, ip)) ?? rotate(ctx, hash, ip))();
    const rotation: Rotation = { ip, doneAt: null, session: answer };
    if (!previous) recent.set(hash, rotation);
    try {
        const session = await rotation.session;
        rotation.doneAt = Date.now();
        return session;
    } catch (error) {
        if (recent.get(hash) === rotation) recent.delete(hash);
        throw error;
    }
}

/** How long a process that finds a token just rotated elsewhere waits for that rotation's answer to be shared. */
const SHARED_ROTATION_WAIT_MS = 2000;

/**
 * The pair another process's rotation of `hash` from the same address answered within the grace, if any (the
 * cluster profile); with `wait`, the rotation may still be under way there, so it is looked for a little longer.
 */
async function graceAnswer(ctx: AppContext, hash: string, ip: string, wait = false): Promise<Session | undefined> {
    const shared = ctx.sharedState.rotations;
    if (!shared) return undefined;
    const until = Date.now() + (wait ? SHARED_ROTATION_WAIT_MS : 0);
    for (;;) {
        const done = await shared.get(hash);
        if (done) {
            if (done.ip !== ip || Date.now() - done.doneAt >= REFRESH_REUSE_GRACE_MS) return undefined;
            await assertLive(ctx, done.session.refreshToken.token);
            return done.session;
        }
        if (Date.now() >= until) return undefined;
        await sleep(50);
    }
}

/** The pair a grace answer repeats must still be alive: its sign-in may have ended since (signed out, password). */
async function assertLive(ctx: AppContext, token: string): Promise<void> {
    const [row] = await ctx.db
        .select({ endedReason: refreshTokens.endedReason, familyExpiresAt: refreshTokens.familyExpiresAt })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashRefreshToken(token)))
        .limit(1);
    if (!row || row.endedReason || row.familyExpiresAt.getTime() <= Date.now()) throw endedError(row?.endedReason);
}

async function rotate(ctx: AppContext, hash: string, ip: string): Promise<Session> {
    const [row] = await ctx.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hash)).limit(1);
    if (!row) throw endedError(null);
    if (row.endedReason) throw endedError(row.endedReason);
    if (row.familyExpiresAt.getTime() <= Date.now()) throw endedError(null);
    if (row.revokedAt) return (await rotatedElsewhere(ctx, row.revokedAt, hash, ip)) ?? reused(ctx, row, ip);
    // Revoke only if still unrevoked, so two concurrent rotations of one token cannot both succeed.
    const revoked = await ctx.db
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.revokedAt)))
        .returning({ id: refreshTokens.id });
    if (revoked.length === 0) return (await rotatedElsewhere(ctx, new Date(), hash, ip)) ?? reused(ctx, row, ip);
    const [user] = await ctx.db.select().from(users).where(eq(users.id, row.userId)).limit(1);
    if (!user?.isActive || !(await companyActive(ctx, user.companyId))) throw endedError(null);
    const session = await issue(ctx, user, row.familyId, row.familyExpiresAt);
    await ctx.sharedState.rotations?.set(hash, { ip, doneAt: Date.now(), session }, REFRESH_REUSE_GRACE_MS);
    return session;
}

/** A token revoked within the grace may have been rotated by another process for the same browser: its answer. */
async function rotatedElsewhere(
    ctx: AppContext,
    revokedAt: Date,
    hash: string,
    ip: string
): Promise<Session | undefined> {
    if (!ctx.sharedState.rotations || Date.now() - revokedAt.getTime() >= REFRESH_REUSE_GRACE_MS) return undefined;
    return graceAnswer(ctx, hash, ip, true);
}

async function reused(ctx: AppContext, row: { userId: number; familyId: string }, ip: string): Promise<never> {
    await revokeFamily(ctx, row.userId, row.familyId, 'reused');
    await writeAudit(ctx.db, {
        companyId: null,
        actorUserId: row.userId,
        ip,
        message: `Refresh token reused from ${ip}; all sessions of that sign-in were ended`,
    });
    throw endedError('reused');
}

/**
 * Ends one sign-in: its refresh tokens are revoked and its lifetime set to now, which is what the guard checks
 * for the access tokens issued from it.
 */
async function revokeFamily(ctx: AppContext, userId: number, familyId: string, reason: EndedReason): Promise<void> {
    const now = new Date();
    await ctx.db
        .update(refreshTokens)
        .set({
            revokedAt: sql`coalesce(${refreshTokens.revokedAt}, ${now.toISOString()}::timestamptz)`,
            endedReason: sql`coalesce(${refreshTokens.endedReason}, ${reason})`,
            familyExpiresAt: now,
        })
        .where(eq(refreshTokens.familyId, familyId));
    announce(ctx, { userId, familyId });
}

/** POST /api/logout: the refresh token presented (as /api/refresh takes it) ends its whole sign-in. */
export async function logout(ctx: AppContext, token: string | undefined, ip: string): Promise<void> {
    if (!token) throw endedError(null);
    const [row] = await ctx.db
        .select({ userId: refreshTokens.userId, familyId: refreshTokens.familyId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashRefreshToken(token)))
        .limit(1);
    if (!row) throw endedError(null);
    await revokeFamily(ctx, row.userId, row.familyId, 'signed_out');
    const [user] = await ctx.db
        .select({ username: users.username, companyId: users.companyId })
        .from(users)
        .where(eq(users.id, row.userId));
    await writeAudit(ctx.db, {
        companyId: user?.companyId ?? null,
        actorUserId: row.userId,
        ip,
        message: `User "${user?.username ?? row.userId}" signed out from ${ip}`,
    });
}

/**
 * Ends every session of a user: refresh families revoked, outstanding access tokens invalidated. `db` may be the
 * transaction of the write that causes it; the announcement still goes to the app's listeners.
 */
export async function endSessions(
    ctx: AppContext,
    userId: number,
    reason: EndedReason,
    db: Db = ctx.db
): Promise<void> {
    const [u] = await db.select({ v: users.tokenVersion }).from(users).where(eq(users.id, userId));
    // A deleted user has no session left to end, but an open log socket must still hear of it.
    if (!u) return announce(ctx, { userId });
    await db
        .update(users)
        .set({ tokenVersion: u.v + 1 })
        .where(eq(users.id, userId));
    await db
        .update(refreshTokens)
        .set({ revokedAt: new Date(), endedReason: reason })
        .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.endedReason)));
    announce(ctx, { userId });
}

/**
 * A deactivated company's sessions end for good: reactivating it later must not bring back tokens issued before.
 */
export async function endCompanySessions(ctx: AppContext, companyId: number): Promise<void> {
    const members = await ctx.db.select({ id: users.id }).from(users).where(eq(users.companyId, companyId));
    for (const m of members) await endSessions(ctx, m.id, 'company_deactivated');
}
