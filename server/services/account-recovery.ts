import { and, eq, isNull, sql } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords';
import type { Db } from '../db/client';
import { refreshTokens, users } from '../db/schema';

/**
 * Recovery from the console's own host (`npm run cli unlock|reset-password`), for when no one can sign in: the
 * shell on the host is the authority, no HTTP involved.
 */
export class RecoveryError extends Error {}

async function userId(db: Db, username: string): Promise<number> {
    const [row] = await db.select({ id: users.id }).from(users).where(eq(users.username, username));
    if (!row) throw new RecoveryError(`No user "${username}".`);
    return row.id;
}

/** Clears the account's failure run; the running server then drops every lock on it at the next attempt. */
export async function unlockUser(db: Db, username: string): Promise<void> {
    const id = await userId(db, username);
    await db.update(users).set({ failedLogins: 0, lastFailedLoginAt: null }).where(eq(users.id, id));
}

/** Sets a new password, unlocks the account and ends its sessions (whoever held them no longer should). */
export async function resetPassword(db: Db, username: string, password: string): Promise<void> {
    const id = await userId(db, username);
    await db
        .update(users)
        .set({
            passwordHash: await hashPassword(password),
            failedLogins: 0,
            lastFailedLoginAt: null,
            isActive: true,
            tokenVersion: sql`${users.tokenVersion} + 1`,
        })
        .where(eq(users.id, id));
    await db
        .update(refreshTokens)
        .set({ revokedAt: new Date(), familyExpiresAt: new Date(), endedReason: 'password_changed' })
        .where(and(eq(refreshTokens.userId, id), isNull(refreshTokens.endedReason)));
}
