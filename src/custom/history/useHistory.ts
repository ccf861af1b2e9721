import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Identifier } from 'react-admin';

import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { REFRESH_MS } from '../network-status/metricsQuery';
import { retryUnlessClientError } from '../../ui/retry';
import { type RangeKey, rangeEndingNow } from './ranges';

const live = { refetchInterval: REFRESH_MS, retry: retryUnlessClientError } as const;

/** A monitor's history over the chosen range (ending now, moved along at each refresh), with the range asked. */
export function useMonitorHistory(monitorId: Identifier, rangeKey: RangeKey) {
    const dataProvider = useNodeMonitorDataProvider();
    return useQuery({
        queryKey: ['nodeMonitor', 'monitorHistory', String(monitorId), rangeKey],
        queryFn: async () => {
            const range = rangeEndingNow(rangeKey);
            return { range, history: await dataProvider.getMonitorHistory(monitorId, range) };
        },
        // The previous range stays on screen while the next one loads, so the page does not jump.
        placeholderData: keepPreviousData,
        ...live,
    });
}

/** The last 100 checks, for the status bar. */
export function useMonitorChecks(monitorId: Identifier) {
    const dataProvider = useNodeMonitorDataProvider();
    return useQuery({
        queryKey: ['nodeMonitor', 'monitorChecks', String(monitorId)],
        queryFn: () => dataProvider.getMonitorChecks(monitorId, 100),
        ...live,
    });
}

/** A server's disk use per mountpoint over the chosen range. */
export function useDiskHistory(serverId: Identifier, rangeKey: RangeKey) {
    const dataProvider = useNodeMonitorDataProvider();
    return useQuery({
        queryKey: ['nodeMonitor', 'diskHistory', String(serverId), rangeKey],
        queryFn: async () => {
            const range = rangeEndingNow(rangeKey);
            return { range, mountpoints: await dataProvider.getServerDiskHistory(serverId, range) };
        },
        placeholderData: keepPreviousData,
        ...live,
    });
}
