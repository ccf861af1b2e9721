import type { User } from '../../common/entities';

export type AccessUser = Pick<User, 'is_admin' | 'is_super_admin'>;

export interface AccessRequest {
    resource: string;
    action: string;
}

/** Screens for super admins only: user and company management and the live log tail. */
const SUPER_ADMIN_RESOURCES = new Set(['users', 'companies', 'logger']);
/** Actions that change data; plain users are read-only (the server answers 403 to their writes). */
const WRITE_ACTIONS = new Set(['create', 'edit', 'delete', 'clone']);

/**
 * What the UI shows to whom; it mirrors the server's role matrix (architecture §3), which stays the authority.
 */
export function canAccess(user: AccessUser | null | undefined, { resource, action }: AccessRequest): boolean {
    // Nobody signed in: nothing.
    if (!user) return false;
    // users, companies, logger: super admin only, whatever the action.
    if (SUPER_ADMIN_RESOURCES.has(resource)) return user.is_super_admin;
    // Writes elsewhere: admins and super admins.
    if (WRITE_ACTIONS.has(action)) return user.is_admin || user.is_super_admin;
    // Reading anything else: any signed-in user.
    return true;
}

/**
 * What react-admin asks before it renders a page (authProvider.canAccess). Spec §6: hiding the super-admin
 * screens is menu hiding only, and any signed-in user reaches every route by address (the server still
 * answers 403); other resources keep the read/write rule of `canAccess`, which also gates their buttons.
 */
export function canAccessPage(user: AccessUser | null | undefined, request: AccessRequest): boolean {
    if (!user) return false;
    if (SUPER_ADMIN_RESOURCES.has(request.resource)) return true;
    return canAccess(user, request);
}
