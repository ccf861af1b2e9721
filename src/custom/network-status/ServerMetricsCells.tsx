import { CircularProgress, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';

import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { formatDaysUntilFull, readDaysUntilFull } from '../history/format';
import { MetricsCell } from './MetricsCell';
import { serverMetricsQuery } from './metricsQuery';

/**
 * One server's metrics for one cell of its row. Each server has its own query, so one failing server shows its error
 * in its cells only; the cells of a row share that query's cached answer (one request per server).
 */
const useServerMetrics = (serverId: number) => {
    const dataProvider = useNodeMonitorDataProvider();
    return useQuery(serverMetricsQuery(dataProvider, serverId));
};

export const DiskUsageCell = ({ serverId }: { serverId: number }) => {
    const { data, isPending, error } = useServerMetrics(serverId);
    return (
        <MetricsCell
            isPending={isPending}
            error={error}
            usage={
                data && { percent: data.usedDiskSpacePercentage, used: data.usedDiskSpace, total: data.totalDiskSpace }
            }
        />
    );
};

export const DaysUntilFullCell = ({ serverId }: { serverId: number }) => {
    const { data, isPending } = useServerMetrics(serverId);
    if (isPending) return <CircularProgress size={16} aria-label="Loading metrics" />;
    // A failed fetch already shows its reason in the usage cells; it is not repeated here.
    return <Typography variant="body2">{formatDaysUntilFull(readDaysUntilFull(data))}</Typography>;
};

export const MemoryUsageCell = ({ serverId }: { serverId: number }) => {
    const { data, isPending, error } = useServerMetrics(serverId);
    return (
        <MetricsCell
            isPending={isPending}
            error={error}
            usage={data && { percent: data.memoryUsagePercentage, used: data.memoryUsage, total: data.totalMemory }}
        />
    );
};
