import RefreshIcon from '@mui/icons-material/Refresh';
import {
    Alert,
    AlertTitle,
    Box,
    Button,
    Card,
    Table,
    TableBody,
    TableCell,
    TableContainer,
    TableHead,
    TableRow,
    Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Title } from 'react-admin';

import type { Configuration } from '../../../common/entities';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { LoadingScreen } from '../layout/LoadingScreen';
import { errorReason } from '../ui/format';
import { REFRESH_MS } from './metricsQuery';
import { ServerMetricsRow } from './ServerMetricsRow';

/**
 * /network-status: disk and memory use of every server, by configuration, refreshed every 30 s; beside the disk,
 * when it will be full at its recent rate of growth.
 */
export const NetworkStatus = () => {
    const dataProvider = useNodeMonitorDataProvider();
    const { data, isPending, error, refetch, isFetching } = useQuery({
        queryKey: ['nodeMonitor', 'networkStatus', 'configurations'],
        queryFn: async () =>
            (
                await dataProvider.getList<Configuration>('configurations', {
                    pagination: { page: 1, perPage: 1000 },
                    sort: { field: 'name', order: 'ASC' },
                    filter: {},
                })
            ).data,
        refetchInterval: REFRESH_MS,
        retry: false,
    });
    const rows = (data ?? []).flatMap((configuration) =>
        (configuration.servers ?? []).map((server) => ({ configuration, server }))
    );

    return (
        <Box>
            <Title title="Network Status" />
            <Typography variant="h4" component="h1">
                Network Status
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 3 }}>
                Monitor system resources across all nodes
            </Typography>
            {isPending ? (
                <LoadingScreen />
            ) : error && !data ? (
                <Alert
                    severity="error"
                    action={
                        <Button
                            color="inherit"
                            startIcon={<RefreshIcon />}
                            disabled={isFetching}
                            onClick={() => refetch()}
                        >
                            Retry
                        </Button>
                    }
                >
                    <AlertTitle>Failed to load metrics</AlertTitle>
                    {errorReason(error)}
                </Alert>
            ) : rows.length === 0 ? (
                <Box sx={{ py: 6, textAlign: 'center' }}>
                    <Typography variant="h6">No metrics available</Typography>
                    <Typography color="text.secondary">
                        Add servers to your configurations to start monitoring metrics
                    </Typography>
                </Box>
            ) : (
                <TableContainer component={Card} variant="outlined">
                    <Table size="small" aria-label="Network Status">
                        <TableHead>
                            <TableRow>
                                <TableCell>Configuration</TableCell>
                                <TableCell>Server</TableCell>
                                <TableCell>Disk Usage</TableCell>
                                <TableCell>Days until full</TableCell>
                                <TableCell>Memory Usage</TableCell>
                            </TableRow>
                        </TableHead>
                        <TableBody>
                            {rows.map(({ configuration, server }) => (
                                <ServerMetricsRow
                                    key={`${configuration.id}-${server.id}`}
                                    configuration={configuration}
                                    server={server}
                                />
                            ))}
                        </TableBody>
                    </Table>
                </TableContainer>
            )}
        </Box>
    );
};
