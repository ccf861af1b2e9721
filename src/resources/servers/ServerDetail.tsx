import { Box, Grid, Link, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Title, useGetManyReference, useGetOne, useNotify, usePermissions } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';

import type { Monitor, Server, Service } from '../../../common/entities';
import { type AccessUser, canAccess } from '../../providers/canAccess';
import { ServerDialog } from './ServerDialog';
import { LoadingScreen } from '../../custom/layout/LoadingScreen';
import { retryUnlessClientError } from '../../ui/retry';
import { DiskHistoryCard } from './DiskHistoryCard';
import { MonitorsPanel } from './MonitorsPanel';
import { ServerDetailsPanel } from './ServerDetailsPanel';
import { ServerHeader } from './ServerHeader';
import { ServerMetricsPanel } from './ServerMetricsPanel';
import { ServicesCard } from './ServicesCard';

export const SERVER_FETCH_FAILED = 'Failed to fetch server data';
export const MONITORS_FETCH_FAILED = 'Failed to fetch server monitors';

const ALL = { pagination: { page: 1, perPage: 1000 }, sort: { field: 'name', order: 'ASC' as const } };

/** /servers/{id}: header, details, system metrics, services and monitors of one server, and its disks over time. */
export const ServerDetail = () => {
    const { id = '' } = useParams();
    const serverId = Number(id);
    const notify = useNotify();
    const { permissions } = usePermissions<AccessUser | null>();
    const canWrite = canAccess(permissions, { resource: 'servers', action: 'edit' });
    const [editing, setEditing] = useState(false);

    const {
        data: server,
        isPending,
        refetch,
    } = useGetOne<Server>(
        'servers',
        { id: serverId },
        { retry: retryUnlessClientError, onError: () => notify(SERVER_FETCH_FAILED, { type: 'error' }) }
    );
    const monitors = useGetManyReference<Monitor>(
        'monitors',
        { target: 'server_id', id: serverId, ...ALL },
        { retry: retryUnlessClientError, onError: () => notify(MONITORS_FETCH_FAILED, { type: 'error' }) }
    );
    // A failed services fetch is only logged (docs/spec.md §8: list fetch failures), the table then shows empty.
    const services = useGetManyReference<Service>(
        'services',
        { target: 'server_id', id: serverId, ...ALL },
        { retry: retryUnlessClientError, onError: (error) => console.error('Failed to fetch server services', error) }
    );
    const configurationId = server?.configuration?.id ?? server?.configuration_id;
    // The sibling servers, so a monitor added here may still point at another server of the configuration.
    const siblings = useGetManyReference<Server>(
        'servers',
        { target: 'configuration_id', id: configurationId ?? 0, ...ALL },
        { enabled: !!configurationId && canWrite, retry: retryUnlessClientError }
    );

    if (isPending) return <LoadingScreen />;
    if (!server || !configurationId) {
        return (
            <Box sx={{ p: 2 }}>
                <Title title="Server" />
                <Typography variant="h5" component="h1" gutterBottom>
                    Server not found
                </Typography>
                <Link component={RouterLink} to="/configurations">
                    Back to configurations
                </Link>
            </Box>
        );
    }

    const monitorList = monitors.data ?? server.monitors ?? [];
    const serverChoices = (siblings.data?.length ? siblings.data : [server]).map(({ id: sid, name }) => ({
        id: sid,
        name,
    }));
    const refreshAll = () => {
        refetch();
        monitors.refetch();
        services.refetch();
    };

    return (
        <Box>
            <Title title={server.name} />
            <ServerHeader
                server={server}
                monitors={monitorList}
                onEdit={canWrite ? () => setEditing(true) : undefined}
            />
            <Grid container spacing={2}>
                <Grid size={{ xs: 12, md: 8 }}>
                    <Stack spacing={2}>
                        <ServicesCard
                            server={server}
                            services={services.data ?? []}
                            canWrite={canWrite}
                            onChanged={refreshAll}
                        />
                        <MonitorsPanel
                            serverId={server.id}
                            configurationId={configurationId}
                            monitors={monitorList}
                            servers={serverChoices}
                            canWrite={canWrite}
                            onChanged={refreshAll}
                        />
                    </Stack>
                </Grid>
                <Grid size={{ xs: 12, md: 4 }}>
                    <Stack spacing={2}>
                        <ServerDetailsPanel server={server} />
                        <ServerMetricsPanel serverId={server.id} />
                    </Stack>
                </Grid>
                <Grid size={12}>
                    <DiskHistoryCard serverId={server.id} />
                </Grid>
            </Grid>
            {canWrite && (
                <ServerDialog
                    open={editing}
                    configurationId={configurationId}
                    record={server}
                    onClose={(saved) => {
                        setEditing(false);
                        if (saved) refetch();
                    }}
                />
            )}
        </Box>
    );
};
