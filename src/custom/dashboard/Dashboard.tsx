import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import StorageIcon from '@mui/icons-material/Storage';
import WarningIcon from '@mui/icons-material/Warning';
import { Alert, Box, Card, CardContent, Grid, Link, Tab, Tabs, Typography } from '@mui/material';
import { useState } from 'react';
import { Title, usePermissions } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';

import type { NotificationChannel } from '../../../common/entities';
import { deliveryFailure } from '../../resources/notification-channels/NotificationChannelCard';
import { LoadingScreen } from '../layout/LoadingScreen';
import { UpcomingWindowsCard } from '../silences/UpcomingWindowsCard';
import { DatabaseBanner } from './DatabaseBanner';
import { MonitorIssuesTable } from './MonitorIssuesTable';
import { StatCard } from './StatCard';
import { useDashboardData } from './useDashboardData';

/** /: the four stat cards and the System Monitoring panel (docs/spec.md §2, counts §4), refreshed every 30 s. */
export const Dashboard = () => {
    const { isPending, critical, warnings, counts, storage, metricsPending, serverCount, failingChannels } =
        useDashboardData();
    const [tab, setTab] = useState<'critical' | 'warnings'>('critical');

    return (
        <Box>
            <Title title="Dashboard" />
            <Typography variant="h4" component="h1" sx={{ mb: 2 }}>
                Dashboard
            </Typography>
            <DatabaseBanner />
            {!isPending && serverCount === 0 && <FirstRunHint />}
            <FailingChannels channels={failingChannels} />
            <UpcomingWindowsCard />
            <Grid container spacing={2} sx={{ mb: 3 }}>
                <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
                    <StatCard
                        title="Critical Issues"
                        value={isPending ? '…' : counts.critical}
                        icon={<ErrorIcon />}
                        color="error.main"
                    />
                </Grid>
                <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
                    <StatCard
                        title="Warnings"
                        value={isPending ? '…' : counts.warnings}
                        icon={<WarningIcon />}
                        color="warning.main"
                    />
                </Grid>
                <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
                    <StatCard
                        title="Healthy Nodes"
                        value={isPending ? '…' : counts.healthy}
                        icon={<CheckCircleIcon />}
                        color="success.main"
                    />
                </Grid>
                <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
                    <StatCard
                        title="Storage Usage"
                        value={
                            storage.percent !== null
                                ? `${Math.round(storage.percent)}%`
                                : isPending || metricsPending
                                  ? '…'
                                  : // Spec §4: storage shows 0 until a disk-space monitor has read a disk.
                                    '0%'
                        }
                        caption={storage.server ? `Fullest disk: ${storage.server.name}` : undefined}
                        icon={<StorageIcon />}
                        color="info.main"
                    />
                </Grid>
            </Grid>
            <Card variant="outlined">
                <CardContent>
                    <Typography variant="h6" component="h2" gutterBottom>
                        System Monitoring
                    </Typography>
                    <Tabs value={tab} onChange={(_, value) => setTab(value)} sx={{ mb: 1 }}>
                        <Tab value="critical" label={`Critical Issues (${critical.length})`} />
                        <Tab value="warnings" label={`Warnings (${warnings.length})`} />
                    </Tabs>
                    {isPending ? (
                        <LoadingScreen />
                    ) : tab === 'critical' ? (
                        <MonitorIssuesTable monitors={critical} emptyText="No critical issues found" />
                    ) : (
                        <MonitorIssuesTable monitors={warnings} emptyText="No warnings found" />
                    )}
                </CardContent>
            </Card>
        </Box>
    );
};

/** Alerts that cannot reach anyone are the failure an operator must hear about first. */
const FailingChannels = ({ channels }: { channels: NotificationChannel[] }) =>
    channels.length === 0 ? null : (
        <Alert severity="error" sx={{ mb: 2 }} aria-label="Failing notification channels">
            {channels.map((c) => (
                <Box key={c.id}>
                    Notification channel{' '}
                    <Link component={RouterLink} to="/notification-channels">
                        {c.name}
                    </Link>
                    : {deliveryFailure(c)}
                </Box>
            ))}
        </Alert>
    );

/**
 * An empty install otherwise reads "All systems are running smoothly" while nothing is watched: say so, and lead
 * to the first steps.
 */
const FirstRunHint = () => {
    const { permissions } = usePermissions<{ is_super_admin?: boolean } | null>();
    return (
        <Alert severity="info" sx={{ mb: 2 }}>
            Nothing is monitored yet.{' '}
            {permissions?.is_super_admin && (
                <>
                    Start with a{' '}
                    <Link component={RouterLink} to="/companies">
                        company
                    </Link>
                    , then add a{' '}
                </>
            )}
            {!permissions?.is_super_admin && 'Add a '}
            <Link component={RouterLink} to="/configurations">
                configuration
            </Link>{' '}
            with its servers and services; each service can create its monitor.
        </Alert>
    );
};
