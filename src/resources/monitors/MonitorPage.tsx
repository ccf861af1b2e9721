import DeleteIcon from '@mui/icons-material/Delete';
import { Box, Button, Card, CardContent, Grid, Link, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Title, useGetIdentity, useGetOne } from 'react-admin';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';

import type { Monitor, User } from '../../../common/entities';
import { MONITOR_CATALOGUE } from '../../../common/monitor-types';
import { canAccess } from '../../providers/canAccess';
import { MonitorHealthChip } from './HealthBadge';
import { useMonitorDelete } from './useMonitorDelete';
import { OpenIncidentLink } from '../incidents/OpenIncidentLink';
import { AuditTable } from '../../custom/audit/AuditTable';
import { MonitorHistoryPanel } from '../../custom/history/MonitorHistoryPanel';
import { useIncidentSpans } from '../../custom/history/useIncidentSpans';
import { LoadingScreen } from '../../custom/layout/LoadingScreen';
import { REFRESH_MS } from '../../custom/network-status/metricsQuery';
import { ActiveChip } from '../../ui/ActiveChip';
import { formatDateTime } from '../../ui/format';
import { retryUnlessClientError } from '../../ui/retry';
import { LocationResults } from './LocationResults';
import { MonitorEditButton } from './MonitorEditButton';
import { MonitorSettings } from './MonitorSettings';
import { SilenceButton } from '../../custom/silences/SilenceButton';
import { SilencedChip } from '../../custom/silences/SilencedChip';

const Detail = ({ label, children }: { label: string; children: ReactNode }) => (
    <Typography>
        <strong>{label}:</strong> {children}
    </Typography>
);

/**
 * /monitor/{id} (the audit list links here; the spec does not show the screen): type, server, configuration,
 * settings with their helper texts, current health, last check and error, its checks over time (status bar, uptime,
 * charts) and the monitor's own audit history.
 */
export const MonitorPage = () => {
    const { id = '' } = useParams();
    const navigate = useNavigate();
    const queryClient = useQueryClient();
    const { identity } = useGetIdentity();
    const user = identity as unknown as User | undefined;
    const remove = useMonitorDelete((deleted) => navigate(`/configurations/${deleted.configuration_id}`));
    const {
        data: monitor,
        isPending,
        refetch,
    } = useGetOne<Monitor>(
        'monitors',
        { id: Number(id) },
        { retry: retryUnlessClientError, refetchInterval: REFRESH_MS }
    );
    const incidentSpans = useIncidentSpans(Number(id));

    if (isPending) return <LoadingScreen />;
    if (!monitor) {
        return (
            <Box sx={{ p: 2 }}>
                <Title title="Monitor" />
                <Typography variant="h5">Monitor not found</Typography>
            </Box>
        );
    }
    const canEdit = canAccess(user, { resource: 'monitors', action: 'edit' });
    const canDelete = canAccess(user, { resource: 'monitors', action: 'delete' });
    const onSaved = () => {
        refetch();
        queryClient.invalidateQueries({ queryKey: ['nodeMonitor', 'audit'] });
    };

    return (
        <Box>
            <Title title={monitor.name} />
            <Box
                sx={{
                    display: 'flex',
                    flexWrap: 'wrap',
                    justifyContent: 'space-between',
                    alignItems: 'center',
                    mb: 3,
                    gap: 2,
                }}
            >
                <Stack direction="row" spacing={2} alignItems="center" sx={{ flexWrap: 'wrap', minWidth: 0 }}>
                    <Typography variant="h4" component="h1">
                        {monitor.name}
                    </Typography>
                    <MonitorHealthChip monitor={monitor} />
                    <ActiveChip active={monitor.is_enabled} />
                    <SilencedChip monitor={monitor} />
                </Stack>
                <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
                    <SilenceButton
                        target={{ monitor_id: monitor.id }}
                        name={monitor.name}
                        onSilenced={() => refetch()}
                    />
                    {canEdit && <MonitorEditButton monitor={monitor} onSaved={onSaved} />}
                    {canDelete && (
                        <Button
                            variant="outlined"
                            color="error"
                            startIcon={<DeleteIcon />}
                            onClick={() => remove.ask(monitor)}
                        >
                            Delete
                        </Button>
                    )}
                </Stack>
            </Box>
            <Grid container spacing={2} sx={{ mb: 2 }}>
                <Grid size={{ xs: 12, md: 6 }}>
                    <Card variant="outlined" sx={{ height: '100%' }}>
                        <CardContent>
                            <Typography variant="h6" component="h2" gutterBottom>
                                Details
                            </Typography>
                            <Stack spacing={1}>
                                <Detail label="Type">{MONITOR_CATALOGUE[monitor.type]?.label ?? monitor.type}</Detail>
                                <Detail label="Configuration">
                                    {monitor.configuration ? (
                                        <Link component={RouterLink} to={`/configurations/${monitor.configuration.id}`}>
                                            {monitor.configuration.name}
                                        </Link>
                                    ) : (
                                        'N/A'
                                    )}
                                </Detail>
                                <Detail label="Server">
                                    {monitor.server ? (
                                        <Link component={RouterLink} to={`/servers/${monitor.server.id}`}>
                                            {monitor.server.name}
                                        </Link>
                                    ) : (
                                        'None'
                                    )}
                                </Detail>
                                <Detail label="Last Check">
                                    {monitor.last_check ? formatDateTime(monitor.last_check) : 'Never'}
                                </Detail>
                                <Detail label="Last Error">{monitor.last_error || 'None'}</Detail>
                                {(monitor.locations || monitor.confirm > 1) && (
                                    <Detail label="Locations">
                                        {`${monitor.locations?.join(', ') ?? 'All'}; Error when ${monitor.confirm} agree`}
                                    </Detail>
                                )}
                                <Detail label="Incident">
                                    {monitor.incident ? <OpenIncidentLink incident={monitor.incident} /> : 'None open'}
                                </Detail>
                            </Stack>
                        </CardContent>
                    </Card>
                </Grid>
                <Grid size={{ xs: 12, md: 6 }}>
                    <Card variant="outlined" sx={{ height: '100%' }}>
                        <CardContent>
                            <Typography variant="h6" component="h2" gutterBottom>
                                Settings
                            </Typography>
                            <MonitorSettings type={monitor.type} configurationObject={monitor.configuration_object} />
                        </CardContent>
                    </Card>
                </Grid>
            </Grid>
            <LocationResults monitor={monitor} />
            <MonitorHistoryPanel monitor={monitor} incidentSpans={incidentSpans} />
            <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                History
            </Typography>
            <AuditTable monitorId={monitor.id} emptyText="No history for this monitor yet" />
            {remove.confirm}
        </Box>
    );
};
