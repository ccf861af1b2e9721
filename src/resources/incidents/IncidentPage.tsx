import { Box, Card, CardContent, Chip, Grid, Link, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { DataTable, Title, useGetOne, usePermissions } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';

import type { Incident, IncidentTimelineEntry } from '../../../common/incidents';
import { LoadingScreen } from '../../custom/layout/LoadingScreen';
import { formatDateTime } from '../../ui/format';
import { retryUnlessClientError } from '../../ui/retry';
import { type AccessUser, canAccess } from '../../providers/canAccess';
import { IncidentActions } from './IncidentActions';
import { PublicUpdates } from './PublicUpdates';
import { IncidentStatusChip, incidentSubject, seconds } from './incidentFormat';
import { LocalDataTable } from '../../ui/LocalDataTable';

const REFRESH_MS = 10_000;

const Detail = ({ label, children }: { label: string; children: ReactNode }) => (
    <Typography>
        <strong>{label}:</strong> {children}
    </Typography>
);

type TimelineRow = IncidentTimelineEntry & { id: number };

const RESULT_CHIP = { sent: 'success', pending: 'default', failed: 'error' } as const;

/** /incidents/{id}: what, where, since when, who acknowledged, and the timeline with each delivery's result. */
export const IncidentPage = () => {
    const { id = '' } = useParams();
    const { permissions } = usePermissions<AccessUser | null>();
    const {
        data: incident,
        isPending,
        refetch,
    } = useGetOne<Incident>('incidents', { id }, { retry: retryUnlessClientError, refetchInterval: REFRESH_MS });
    if (isPending) return <LoadingScreen />;
    if (!incident) {
        return (
            <Box sx={{ p: 2 }}>
                <Title title="Incident" />
                <Typography variant="h5">Incident not found</Typography>
            </Box>
        );
    }
    const canAct = canAccess(permissions, { resource: 'incidents', action: 'edit' });
    // Entries have no id of their own; their order, fixed by the server, gives one (the timeline is append-only).
    const timeline: TimelineRow[] = (incident.timeline ?? []).map((entry, index) => ({ ...entry, id: index }));
    return (
        <Box sx={{ p: { xs: 1, sm: 0 } }}>
            <Title title="Incident" />
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
                <Stack direction="row" spacing={2} alignItems="center">
                    <Typography variant="h4" component="h1">
                        {incidentSubject(incident)}
                    </Typography>
                    <IncidentStatusChip incident={incident} />
                </Stack>
                {canAct && <IncidentActions incident={incident} onDone={() => refetch()} />}
            </Box>
            <Grid container spacing={2} sx={{ mb: 2 }}>
                <Grid size={{ xs: 12, md: 6 }}>
                    <Card variant="outlined" sx={{ height: '100%' }}>
                        <CardContent>
                            <Stack spacing={1}>
                                <Detail label="Incident">{incident.id}</Detail>
                                <Detail label="Problem">{incident.message ?? 'No message'}</Detail>
                                <Detail label="Configuration">
                                    <Link component={RouterLink} to={`/configurations/${incident.configuration_id}`}>
                                        {incident.configuration_name}
                                    </Link>
                                </Detail>
                                <Detail label="Monitor">
                                    {incident.monitor_id ? (
                                        <Link component={RouterLink} to={`/monitor/${incident.monitor_id}`}>
                                            {incident.monitor_name ?? `#${incident.monitor_id}`}
                                        </Link>
                                    ) : (
                                        '—'
                                    )}
                                </Detail>
                                <Detail label="Server">{incident.server_name ?? '—'}</Detail>
                                <Detail label="Severity">{incident.severity}</Detail>
                            </Stack>
                        </CardContent>
                    </Card>
                </Grid>
                <Grid size={{ xs: 12, md: 6 }}>
                    <Card variant="outlined" sx={{ height: '100%' }}>
                        <CardContent>
                            <Stack spacing={1}>
                                <Detail label="Opened">{formatDateTime(incident.opened_at)}</Detail>
                                <Detail label="Acknowledged">
                                    {incident.acknowledged_at
                                        ? `${formatDateTime(incident.acknowledged_at)} by ${incident.acknowledged_by} (${incident.acknowledged_via})`
                                        : 'Not yet'}
                                </Detail>
                                <Detail label="Closed">
                                    {incident.closed_at ? formatDateTime(incident.closed_at) : 'Still open'}
                                </Detail>
                                <Detail label="Duration">
                                    {seconds(incident.duration_seconds)}
                                    {incident.status === 'open' ? ' so far' : ''}
                                </Detail>
                            </Stack>
                        </CardContent>
                    </Card>
                </Grid>
            </Grid>
            <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                Timeline
            </Typography>
            {/* At phone width the timeline scrolls sideways rather than widen the page. */}
            <Box sx={{ overflowX: 'auto', maxWidth: 'calc(100vw - 16px)' }}>
                <LocalDataTable<TimelineRow> data={timeline} aria-label="Incident timeline" empty={null}>
                    <DataTable.Col
                        label="Time"
                        cellSx={() => ({ whiteSpace: { sm: 'nowrap' } })}
                        render={(entry: TimelineRow) => formatDateTime(entry.at)}
                    />
                    <DataTable.Col
                        label="Event"
                        render={(entry: TimelineRow) =>
                            entry.result ? (
                                <Chip size="small" label={entry.result} color={RESULT_CHIP[entry.result]} />
                            ) : (
                                entry.kind
                            )
                        }
                    />
                    <DataTable.Col
                        label="Details"
                        cellSx={() => ({ overflowWrap: 'anywhere', minWidth: 160 })}
                        render={(entry: TimelineRow) =>
                            entry.until
                                ? `RECOVERED held until ${new Date(entry.until).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}`
                                : entry.text
                        }
                    />
                </LocalDataTable>
            </Box>
            <PublicUpdates incidentId={incident.id} canPost={canAct} />
        </Box>
    );
};
