import { Alert, Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Title, usePermissions } from 'react-admin';

import type { AccessUser } from '../providers/canAccess';

export const SUPER_ADMIN_ONLY = 'Only super admins can see this page.';

/**
 * The route stays reachable by address (docs/spec.md §6), but a user who is not a super admin gets a plain sentence
 * instead of an Add button, an empty list and a refused call's toast (or a log socket the server refuses).
 */
export const SuperAdminOnly = ({ title, children }: { title: string; children: ReactNode }) => {
    const { permissions, isPending } = usePermissions<AccessUser | null>();
    if (isPending) return null;
    if (!permissions?.is_super_admin) {
        return (
            <Box sx={{ p: 2 }}>
                <Title title={title} />
                <Typography variant="h4" component="h1" gutterBottom>
                    {title}
                </Typography>
                <Alert severity="info">{SUPER_ADMIN_ONLY}</Alert>
            </Box>
        );
    }
    return <>{children}</>;
};
