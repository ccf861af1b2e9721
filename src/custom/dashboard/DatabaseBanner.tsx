import { Alert, AlertTitle } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { usePermissions } from 'react-admin';

import type { AccessUser } from '../../providers/canAccess';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { REFRESH_MS } from '../network-status/metricsQuery';

/**
 * For super admins, who run the console: a banner while the database fails (a full disk, a stopped PostgreSQL),
 * with the reason the server gives, so that nobody mistakes refused saves for a bug of the form.
 */
export const DatabaseBanner = () => {
    const { permissions } = usePermissions<AccessUser | null>();
    const dataProvider = useNodeMonitorDataProvider();
    const superAdmin = Boolean(permissions?.is_super_admin);
    const { data } = useQuery({
        queryKey: ['nodeMonitor', 'dashboard', 'health'],
        queryFn: () => dataProvider.getHealth(),
        enabled: superAdmin,
        refetchInterval: REFRESH_MS,
        retry: false,
    });
    const failing = data?.database;
    if (!superAdmin || !failing) return null;
    return (
        <Alert severity="error" sx={{ mb: 2 }}>
            <AlertTitle>The database is failing</AlertTitle>
            {failing.message}
            {failing.since ? ` (since ${new Date(failing.since).toLocaleString()})` : ''}
        </Alert>
    );
};
