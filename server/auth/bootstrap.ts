import { randomBytes } from 'node:crypto';
import { count } from 'drizzle-orm';
import { hashPassword } from './passwords';
import type { AppContext } from '../context';
import { users } from '../db/schema/index';

/** On a database with no users, creates the first super admin; returns its password when it was generated. */
export async function ensureFirstAdmin(ctx: AppContext): Promise<{ username: string; password: string } | null> {
    const [row] = await ctx.db.select({ n: count() }).from(users);
    if ((row?.n ?? 0) > 0) return null;
    const password = ctx.config.adminPassword ?? randomBytes(12).toString('base64url');
    await ctx.db
        .insert(users)
        .values({
            username: ctx.config.adminUsername,
            passwordHash: await hashPassword(password),
            isSuperAdmin: true,
            isAdmin: true,
        })
        .onConflictDoNothing();
    return ctx.config.adminPassword ? null : { username: ctx.config.adminUsername, password };
}
