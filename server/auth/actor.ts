/** The signed-in user as every route sees it. */
export interface Actor {
    id: number;
    username: string;
    isAdmin: boolean;
    isSuperAdmin: boolean;
    companyId: number | null;
    /** Set when the request came with an API token rather than a session; a read token may not write. */
    apiToken?: { id: number; scope: 'read' | 'write' };
}

/** The company whose rows the actor sees; null means every company (super admin). */
export function companyScope(actor: Actor): number | null {
    return actor.isSuperAdmin ? null : (actor.companyId ?? -1);
}

export function canWrite(actor: Actor): boolean {
    return actor.isSuperAdmin || actor.isAdmin;
}

/** True when the actor may see a row owned by `companyId`. */
export function ownsCompany(actor: Actor, companyId: number | null | undefined): boolean {
    return actor.isSuperAdmin || (companyId !== null && companyId !== undefined && companyId === actor.companyId);
}
