import { usePermissions } from 'react-admin';

import { type AccessUser, canAccess } from '../../providers/canAccess';

/**
 * What the signed-in user may do on configuration screens: admins write (add, edit, delete), plain users
 * only read; super admins also pick the company. Nothing is allowed while permissions load.
 */
export function useConfigurationAccess() {
    const { permissions } = usePermissions<AccessUser | null>();
    return {
        canWrite: canAccess(permissions, { resource: 'configurations', action: 'edit' }),
        isSuperAdmin: Boolean(permissions?.is_super_admin),
    };
}
