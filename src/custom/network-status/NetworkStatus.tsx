import RefreshIcon from '@mui/icons-material/Refresh';
import { Alert, AlertTitle, Box, Button, Card, Link, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { DataTable, Title } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';

import type { Configuration, Server } from '../../../common/entities';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { LoadingScreen } from '../layout/LoadingScreen';
import { errorReason } from '../../ui/format';
import { REFRESH_MS } from './metricsQuery';
import { NodeStatusCell } from './NodeStatusCell';
import { ProbeLocations } from './ProbeLocations';
import { DaysUntilFullCell, DiskUsageCell, MemoryUsageCell } from './ServerMetricsCells';
import { LocalDataTable } from '../../ui/LocalDataTable';

/** A row of the table: one server of one configuration. */
interface MetricsRow {
    id: string;
    configuration: Configuration;
    server: Server;
}

/**
 * /network-status: disk and memory use of every server, by configuration, refreshed every 30 s; beside the disk,
 * when it will be full at its recent rate of growth; beside the memory, its node's height, block lag, peers and sync.
 * Below, the monitors checked from several probe locations, with each location's latest result.
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
    const rows: MetricsRow[] = (data ?? []).flatMap((configuration) =>
        (configuration.servers ?? []).map((server) => ({
            id: `${configuration.id}-${server.id}`,
            configuration,
            server,
        }))
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
                    <Typography variant="h6" component="p">
                        No metrics available
                    </Typography>
                    <Typography color="text.secondary">
                        Add servers to your configurations to start monitoring metrics
                    </Typography>
                </Box>
            ) : (
                <Card variant="outlined">
                    <LocalDataTable<MetricsRow> resource="servers" data={rows} aria-label="Network Status">
                        <DataTable.Col
                            label="Configuration"
                            render={({ configuration }: MetricsRow) => (
                                <Link component={RouterLink} to={`/configurations/${configuration.id}`}>
                                    {configuration.name}
                                </Link>
                            )}
                        />
                        <DataTable.Col
                            label="Server"
                            render={({ server }: MetricsRow) => (
                                <Link component={RouterLink} to={`/servers/${server.id}`}>
                                    {server.name}
                                </Link>
                            )}
                        />
                        <DataTable.Col
                            label="Disk Usage"
                            render={({ server }: MetricsRow) => <DiskUsageCell serverId={server.id} />}
                        />
                        <DataTable.Col
                            label="Days until full"
                            render={({ server }: MetricsRow) => <DaysUntilFullCell serverId={server.id} />}
                        />
                        <DataTable.Col
                            label="Memory Usage"
                            render={({ server }: MetricsRow) => <MemoryUsageCell serverId={server.id} />}
                        />
                        <DataTable.Col
                            label="Node"
                            render={({ server }: MetricsRow) => <NodeStatusCell serverId={server.id} />}
                        />
                    </LocalDataTable>
                </Card>
            )}
            {rows.length > 0 ? <ProbeLocations configurations={data ?? []} /> : null}
        </Box>
    );
};
