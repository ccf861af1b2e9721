import { useQuery } from '@tanstack/react-query';

import type { Monitor, NotificationChannel, Server } from '../../../common/entities';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { REFRESH_MS } from '../network-status/metricsQuery';

/** Dashboard fetch failures are only logged, and the lists then show empty (docs/spec.md §8). */
async function orEmpty<T>(what: string, load: () => Promise<T[]>): Promise<T[]> {
    try {
        return await load();
    } catch (error) {
        console.error(`Failed to fetch ${what}`, error);
        return [];
    }
}

/** The dashboard's lists and counts (docs/spec.md §4), refreshed every 30 s. */
export function useDashboardData() {
    const dataProvider = useNodeMonitorDataProvider();
    const common = { refetchInterval: REFRESH_MS, retry: false } as const;
    const failed = useQuery({
        queryKey: ['nodeMonitor', 'dashboard', 'failed'],
        queryFn: () => orEmpty<Monitor>('failed monitors', () => dataProvider.getFailedMonitors()),
        ...common,
    });
    const warnings = useQuery({
        queryKey: ['nodeMonitor', 'dashboard', 'warnings'],
        queryFn: () => orEmpty<Monitor>('warning monitors', () => dataProvider.getWarningMonitors()),
        ...common,
    });
    const servers = useQuery({
        queryKey: ['nodeMonitor', 'dashboard', 'servers'],
        queryFn: () =>
            orEmpty<Server>(
                'servers',
                async () =>
                    (
                        await dataProvider.getList<Server>('servers', {
                            pagination: { page: 1, perPage: 10_000 },
                            sort: { field: 'id', order: 'ASC' },
                            filter: {},
                        })
                    ).data
            ),
        ...common,
    });
    // The fullest disk as the disk-space monitors last read it: one request, however many servers there are.
    const storage = useQuery({
        queryKey: ['nodeMonitor', 'dashboard', 'storage'],
        queryFn: async () => {
            try {
                return (await dataProvider.getStorageUsage()).fullest;
            } catch (error) {
                console.error('Failed to fetch storage usage', error);
                return null;
            }
        },
        ...common,
    });
    // The caller's channels (the server scopes them), for the ones whose deliveries fail.
    const channels = useQuery({
        queryKey: ['nodeMonitor', 'dashboard', 'channels'],
        queryFn: () =>
            orEmpty<NotificationChannel>(
                'notification channels',
                async () =>
                    (
                        await dataProvider.getList<NotificationChannel>('notification-channels', {
                            pagination: { page: 1, perPage: 10_000 },
                            sort: { field: 'id', order: 'ASC' },
                            filter: {},
                        })
                    ).data
            ),
        ...common,
    });
    const serverList = servers.data ?? [];

    const critical = failed.data ?? [];
    const warning = warnings.data ?? [];
    return {
        isPending: failed.isPending || warnings.isPending || servers.isPending,
        critical,
        warnings: warning,
        counts: {
            critical: critical.length,
            warnings: warning.length,
            // Spec §4: servers minus the critical count (never below zero: several monitors may fail on one server).
            healthy: Math.max(0, serverList.length - critical.length),
        },
        storage: {
            percent: storage.data?.usedDiskSpacePercentage ?? null,
            server: storage.data?.server ?? null,
        },
        metricsPending: storage.isPending,
        serverCount: serverList.length,
        failingChannels: (channels.data ?? []).filter((c) => c.is_enabled && c.delivery?.status === 'failing'),
    };
}
