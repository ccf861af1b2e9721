import RefreshIcon from '@mui/icons-material/Refresh';
import {
    Alert,
    AlertTitle,
    Box,
    Button,
    Card,
    CardContent,
    CardHeader,
    CircularProgress,
    LinearProgress,
    Stack,
    Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';

import { formatUsage } from '../../../common/bytes';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { serverMetricsQuery } from '../../custom/network-status/metricsQuery';
import { errorReason } from '../../ui/format';

const Usage = ({ label, percent, used, total }: { label: string; percent?: number; used?: number; total?: number }) => (
    <Box>
        <Typography variant="subtitle2">{label}</Typography>
        <LinearProgress
            variant="determinate"
            value={Math.min(100, Math.max(0, percent ?? 0))}
            color={(percent ?? 0) >= 90 ? 'error' : (percent ?? 0) >= 75 ? 'warning' : 'primary'}
            aria-label={label}
            sx={{ my: 0.5, height: 8, borderRadius: 4 }}
        />
        <Typography variant="body2">{formatUsage(percent, used, total)}</Typography>
    </Box>
);

/**
 * System Metrics: disk and memory as `42% (1.00 GB / 2.00 GB)`, refreshed every 30 s (the cache is shared
 * with the network status page). A failure shows the server's message and a Retry button; a server without a
 * node_exporter service (the API's 404) is a normal state, told in a neutral note rather than as a failure.
 */
export const ServerMetricsPanel = ({ serverId }: { serverId: number }) => {
    const dataProvider = useNodeMonitorDataProvider();
    const { data, isPending, error, refetch, isFetching } = useQuery(serverMetricsQuery(dataProvider, serverId));
    const noExporter = (error as { status?: number } | null)?.status === 404;

    return (
        <Card variant="outlined">
            <CardHeader title="System Metrics" />
            <CardContent sx={{ pt: 0 }}>
                {error ? (
                    <Alert
                        severity={noExporter ? 'info' : 'error'}
                        action={
                            <Button
                                color="inherit"
                                size="small"
                                startIcon={<RefreshIcon />}
                                disabled={isFetching}
                                onClick={() => refetch()}
                            >
                                Retry
                            </Button>
                        }
                    >
                        <AlertTitle>{noExporter ? 'No node_exporter metrics' : 'Failed to load metrics'}</AlertTitle>
                        {errorReason(error)}
                    </Alert>
                ) : isPending ? (
                    <CircularProgress size={20} aria-label="Loading metrics" />
                ) : (
                    <Stack spacing={2}>
                        <Usage
                            label="Disk Usage"
                            percent={data?.usedDiskSpacePercentage}
                            used={data?.usedDiskSpace}
                            total={data?.totalDiskSpace}
                        />
                        <Usage
                            label="Memory Usage"
                            percent={data?.memoryUsagePercentage}
                            used={data?.memoryUsage}
                            total={data?.totalMemory}
                        />
                        {data?.mountpoint && (
                            <Typography variant="caption" color="text.secondary">
                                Disk figures for {data.mountpoint}
                            </Typography>
                        )}
                    </Stack>
                )}
            </CardContent>
        </Card>
    );
};
