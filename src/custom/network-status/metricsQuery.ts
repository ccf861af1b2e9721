import type { Identifier } from 'react-admin';

import type { ServerMetrics } from '../../../common/entities';
import type { NodeMonitorDataProvider } from '../../providers/dataProvider';

/** Metrics, monitor lists and counts refresh on their own every 30 s (docs/spec.md §9), without a page reload. */
export const REFRESH_MS = 30_000;

/**
 * The react-query options of one server's metrics. The key is shared by the dashboard and the network status
 * page, so both read the same cached answer; a 404/502 is an answer (the cell shows it), so it is not retried.
 */
export const serverMetricsQuery = (dataProvider: NodeMonitorDataProvider, serverId: Identifier) => ({
    queryKey: ['nodeMonitor', 'serverMetrics', String(serverId)],
    queryFn: (): Promise<ServerMetrics> => dataProvider.getServerMetrics(serverId),
    refetchInterval: REFRESH_MS,
    retry: false,
});
