import { Box, Grid, Link, Typography } from '@mui/material';
import { useState } from 'react';
import { Title, useGetManyReference, useGetOne, useNotify } from 'react-admin';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';

import type { Configuration, Monitor, Server } from '../../../common/entities';
import { VALIDATOR_CARD_TYPES } from '../../../common/validator-card';
import { ConfigurationDialog } from './ConfigurationDialog';
import { useConfigurationAccess } from './useConfigurationAccess';
import { useConfigurationDelete } from './useConfigurationDelete';
import { LoadingScreen } from '../../custom/layout/LoadingScreen';
import { retryUnlessClientError } from '../../ui/retry';
import { ConfigurationDetailsCard } from './ConfigurationDetailsCard';
import { ConfigurationHeader } from './ConfigurationHeader';
import { MonitorsCard } from './MonitorsCard';
import { NotificationChannelsPanel } from './NotificationChannelsPanel';
import { ServersCard } from './ServersCard';
import { SilencesPanel } from '../../custom/silences/SilencesPanel';
import { ValidatorCard } from './ValidatorCard';

const ALL = { pagination: { page: 1, perPage: 1000 }, sort: { field: 'name', order: 'ASC' as const } };

/** /configurations/{id}: header, details, servers, monitors and notification channels. */
export const ConfigurationDetail = () => {
    const { id = '' } = useParams();
    const configurationId = Number(id);
    const notify = useNotify();
    const navigate = useNavigate();
    const { canWrite } = useConfigurationAccess();
    const [editing, setEditing] = useState(false);
    const { ask: askDelete, confirm: deleteConfirm } = useConfigurationDelete(() => navigate('/configurations'));

    const {
        data: configuration,
        isPending,
        refetch,
    } = useGetOne<Configuration>(
        'configurations',
        { id: configurationId },
        {
            retry: retryUnlessClientError,
            onError: () => notify('Failed to fetch configuration data!', { type: 'error' }),
        }
    );
    const servers = useGetManyReference<Server>(
        'servers',
        { target: 'configuration_id', id: configurationId, ...ALL },
        { retry: retryUnlessClientError }
    );
    const monitors = useGetManyReference<Monitor>(
        'monitors',
        { target: 'configuration_id', id: configurationId, ...ALL },
        { retry: retryUnlessClientError }
    );
    const refreshAll = () => {
        refetch();
        servers.refetch();
        monitors.refetch();
    };

    if (isPending) return <LoadingScreen />;
    if (!configuration) {
        return (
            <Box sx={{ p: 2 }}>
                <Title title="Configuration" />
                <Typography variant="h5" component="h1" gutterBottom>
                    Configuration unavailable
                </Typography>
                <Link component={RouterLink} to="/configurations">
                    Back to configurations
                </Link>
            </Box>
        );
    }

    const serverList = servers.data ?? configuration.servers ?? [];
    const monitorList = monitors.data ?? configuration.monitors ?? [];
    const hasValidator = monitorList.some((m) => (VALIDATOR_CARD_TYPES as readonly string[]).includes(m.type));
    return (
        <Box>
            <Title title={configuration.name} />
            <ConfigurationHeader
                configuration={configuration}
                serverCount={serverList.length}
                monitors={monitorList}
                onEdit={canWrite ? () => setEditing(true) : undefined}
                onDelete={canWrite ? () => askDelete(configuration) : undefined}
            />
            <Grid container spacing={2}>
                <Grid size={{ xs: 12, md: 4 }}>
                    <ConfigurationDetailsCard configuration={configuration} />
                </Grid>
                <Grid size={{ xs: 12, md: 8 }}>
                    <ServersCard
                        configurationId={configuration.id}
                        servers={serverList}
                        monitors={monitorList}
                        canWrite={canWrite}
                        onChanged={refreshAll}
                    />
                </Grid>
                {hasValidator && (
                    <Grid size={12}>
                        <ValidatorCard configurationId={configuration.id} />
                    </Grid>
                )}
                <Grid size={12}>
                    <MonitorsCard
                        configurationId={configuration.id}
                        monitors={monitorList}
                        servers={serverList}
                        canWrite={canWrite}
                        onChanged={refreshAll}
                    />
                </Grid>
                <Grid size={12}>
                    <SilencesPanel
                        configurationId={configuration.id}
                        configurationName={configuration.name}
                        servers={serverList}
                        canWrite={canWrite}
                    />
                </Grid>
                <Grid size={12}>
                    <NotificationChannelsPanel configurationId={configuration.id} canWrite={canWrite} />
                </Grid>
            </Grid>
            {canWrite && (
                <>
                    <ConfigurationDialog
                        open={editing}
                        configuration={configuration}
                        onClose={() => setEditing(false)}
                        onSaved={() => refetch()}
                    />
                    {deleteConfirm}
                </>
            )}
        </Box>
    );
};
