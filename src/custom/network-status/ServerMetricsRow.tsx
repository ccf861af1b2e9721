import { CircularProgress, Link, TableCell, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';

import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { formatDaysUntilFull, readDaysUntilFull } from '../history/format';
import { MetricsCell } from './MetricsCell';
import { serverMetricsQuery } from './metricsQuery';

export interface ServerMetricsRowProps {
    configuration: { id: number; name: string };
    server: { id: number; name: string };
}

/** A server's row: its own metrics query, so one failing server shows its error in its cells only. */
export const ServerMetricsRow = ({ configuration, server }: ServerMetricsRowProps) => {
    const dataProvider = useNodeMonitorDataProvider();
    const { data, isPending, error } = useQuery(serverMetricsQuery(dataProvider, server.id));
    return (
        <TableRow>
            <TableCell>
                <Link component={RouterLink} to={`/configurations/${configuration.id}`}>
                    {configuration.name}
                </Link>
            </TableCell>
            <TableCell>
                <Link component={RouterLink} to={`/servers/${server.id}`}>
                    {server.name}
                </Link>
            </TableCell>
            <TableCell>
                <MetricsCell
                    isPending={isPending}
                    error={error}
                    usage={
                        data && {
                            percent: data.usedDiskSpacePercentage,
                            used: data.usedDiskSpace,
                            total: data.totalDiskSpace,
                        }
                    }
                />
            </TableCell>
            <TableCell>
                {isPending ? (
                    <CircularProgress size={16} aria-label="Loading metrics" />
                ) : (
                    // A failed fetch already shows its reason in the usage cells; it is not repeated here.
                    <Typography variant="body2">{formatDaysUntilFull(readDaysUntilFull(data))}</Typography>
                )}
            </TableCell>
            <TableCell>
                <MetricsCell
                    isPending={isPending}
                    error={error}
                    usage={
                        data && { percent: data.memoryUsagePercentage, used: data.memoryUsage, total: data.totalMemory }
                    }
                />
            </TableCell>
        </TableRow>
    );
};
