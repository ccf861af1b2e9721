import { companies, users } from '../db/schema';
import type { Actor } from './actor';

/** The columns `liveActor` decides on; the query joins `companies` on the user's company. */
export const userDecisionColumns = {
    user: {
        id: users.id,
        username: users.username,
        isActive: users.isActive,
        isAdmin: users.isAdmin,
        isSuperAdmin: users.isSuperAdmin,
        companyId: users.companyId,
        tokenVersion: users.tokenVersion,
    },
    companyActive: companies.isActive,
};

/** What deciding on a request's user reads: never the password hash, and little to decode on every request. */
export interface UserDecisionRow {
    user: {
        id: number;
        username: string;
        isActive: boolean;
        isAdmin: boolean;
        isSuperAdmin: boolean;
        companyId: number | null;
        tokenVersion: number;
    };
    companyActive: boolean | null;
}

/**
 * The actor for a credential issued at `tokenVersion`, or null when its user is disabled, has changed password or
 * role since (token version), or belongs to an inactive company. Session tokens and API tokens both end this way.
 */
export function liveActor(row: UserDecisionRow | undefined, tokenVersion: number): Actor | null {
    if (!row?.user.isActive || row.user.tokenVersion !== tokenVersion) return null;
    if (row.user.companyId !== null && row.companyActive === false) return null;
    const { id, username, isAdmin, isSuperAdmin, companyId } = row.user;
    return { id, username, isAdmin, isSuperAdmin, companyId };
}
