import { type Identifier, useGetList } from 'react-admin';

import type { Incident } from '../../../common/incidents';
import { REFRESH_MS } from '../network-status/metricsQuery';
import { retryUnlessClientError } from '../../ui/retry';
import type { IncidentSpan } from './TimeSeriesChart';

/** How many of a monitor's latest incidents the charts shade; older ones fall outside every range but the year. */
const LATEST = 100;

/** A monitor's latest incidents as chart bands (an open one runs to the chart's end), refreshed with the charts. */
export function useIncidentSpans(monitorId: Identifier): IncidentSpan[] | undefined {
    const { data } = useGetList<Incident>(
        'incidents',
        {
            filter: { monitor_id: monitorId },
            pagination: { page: 1, perPage: LATEST },
            sort: { field: 'opened_at', order: 'DESC' },
        },
        { refetchInterval: REFRESH_MS, retry: retryUnlessClientError }
    );
    return data?.map((incident) => ({ from: incident.opened_at, to: incident.closed_at }));
}
