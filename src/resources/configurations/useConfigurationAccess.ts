import { usePermissions } from 'react-admin';

import { type AccessUser, canAccess } from '../../providers/canAccess';

/**
 * What the signed-in user may do on configuration screens: admins write (add, edit, delete), plain users
 * only read; super admins also pick the company. Nothing is allowed while permissions load.
 */
export function useConfigurationAccess() {
    const { permissions } = usePermissions<(AccessUser & { company_id?: number | null }) | null>();
    return {
        /** A super admin without a company of their own must pick one: the API has no default for them. */
        mustPickCompany: Boolean(permissions?.is_super_admin) && (permissions?.company_id ?? null) === null,
        canWrite: canAccess(permissions, { resource: 'configurations', action: 'edit' }),
        isSuperAdmin: Boolean(permissions?.is_super_admin),
    };
}
