import { Card, CardContent, CardHeader, Link, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';

import type { Server } from '../../../common/entities';
import { formatDateTime } from '../../ui/format';

const Row = ({ label, children }: { label: string; children: ReactNode }) => (
    <Typography component="div">
        <strong>{label}:</strong> {children}
    </Typography>
);

/** Server Details: status Enabled/Disabled, configuration (link), Created At, Last Updated (N/A when missing). */
export const ServerDetailsPanel = ({ server }: { server: Server }) => {
    const configurationId = server.configuration?.id ?? server.configuration_id;
    return (
        <Card variant="outlined">
            <CardHeader title="Server Details" />
            <CardContent sx={{ pt: 0 }}>
                <Stack spacing={1}>
                    <Row label="Status">{server.is_enabled ? 'Enabled' : 'Disabled'}</Row>
                    <Row label="Configuration">
                        {configurationId ? (
                            <Link component={RouterLink} to={`/configurations/${configurationId}`}>
                                {server.configuration?.name ?? `Configuration ${configurationId}`}
                            </Link>
                        ) : (
                            'N/A'
                        )}
                    </Row>
                    <Row label="Created At">{formatDateTime(server.createdAt)}</Row>
                    <Row label="Last Updated">{formatDateTime(server.updatedAt)}</Row>
                </Stack>
            </CardContent>
        </Card>
    );
};
