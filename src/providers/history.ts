import type { Identifier } from 'react-admin';

import type { LocationLevel } from '../../common/locations';
import { apiUrl } from './httpClient';
import { authRequest, getAccessToken } from './session';

/** One bucket of a monitor's history (raw, 5-minute or hourly, as the server chose for the range). */
export interface HistoryPoint {
    t: string;
    ok: number;
    warning: number;
    error: number;
    latency_avg_ms: number | null;
    latency_max_ms: number | null;
    value_last: number | null;
    value_min: number | null;
    value_max: number | null;
}

export type UptimePeriod = '24h' | '7d' | '30d' | '1y';

export interface MonitorHistory {
    points: HistoryPoint[];
    /** Percent of checks that were not Error; null when the period has no checks. */
    uptime: Record<UptimePeriod, number | null>;
}

export interface CheckResult {
    t: string;
    level: 'ok' | 'warning' | 'error';
    message: string | null;
    latency_ms: number | null;
    value: number | null;
    /** The node a validator-duty check read the chain through. */
    source?: string | null;
    /** What each location saw, when several checked the monitor; null or absent for a check from one place. */
    locations?: LocationLevel[] | null;
}

export interface MountpointHistory {
    mountpoint: string;
    points: { t: string; used_percent: number }[];
    /** Projected from the last 7 days of growth; null when flat or shrinking. */
    days_until_full: number | null;
}

/** ISO times; the server picks the step from the range. */
export interface HistoryRange {
    from: string;
    to: string;
}

const key = (value: Identifier) => encodeURIComponent(String(value));

/** The CSV export of a monitor's history over a range (GET /monitors/{id}/history.csv), as the API path. */
export const monitorHistoryCsvPath = (monitorId: Identifier, range: HistoryRange) =>
    `/monitors/${key(monitorId)}/history.csv?${new URLSearchParams({ ...range })}`;

/** The history calls, spread into the data provider so components reach them through `useDataProvider()`. */
export const historyMethods = {
    /** GET /monitors/{id}/history: buckets over the range and the 24 h / 7 d / 30 d / 1 y uptime. */
    getMonitorHistory: async (monitorId: Identifier, range: HistoryRange): Promise<MonitorHistory> =>
        (await authRequest<MonitorHistory>(`/monitors/${key(monitorId)}/history`, { query: { ...range } }))
            .json as MonitorHistory,
    /** GET /monitors/{id}/checks: the latest checks, oldest first (the status bar). */
    getMonitorChecks: async (monitorId: Identifier, limit = 100): Promise<CheckResult[]> =>
        (
            await authRequest<{ results?: CheckResult[] }>(`/monitors/${key(monitorId)}/checks`, {
                query: { limit: String(limit) },
            })
        ).json?.results ?? [],
    /** GET /servers/{id}/disk-history: used percent per mountpoint and its days-until-full projection. */
    getServerDiskHistory: async (serverId: Identifier, range: HistoryRange): Promise<MountpointHistory[]> =>
        (
            await authRequest<{ mountpoints?: MountpointHistory[] }>(`/servers/${key(serverId)}/disk-history`, {
                query: { ...range },
            })
        ).json?.mountpoints ?? [],
    /**
     * The CSV file itself: the API wants the bearer token, which a plain link cannot send, so the page
     * fetches it and hands the browser a file.
     */
    getMonitorHistoryCsv: async (monitorId: Identifier, range: HistoryRange): Promise<Blob> => {
        const token = await getAccessToken();
        const response = await fetch(apiUrl(monitorHistoryCsvPath(monitorId, range)), {
            headers: token ? { Authorization: `Bearer ${token}` } : {},
        });
        if (!response.ok) throw new Error(`The export failed (HTTP ${response.status})`);
        return response.blob();
    },
};

export type HistoryMethods = typeof historyMethods;
