import { Box, Card, CardContent, CardHeader, Chip, Link, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';

import type { Configuration, Monitor } from '../../../common/entities';
import type { LocationResult } from '../../../common/locations';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { LOCATION_LEVEL } from '../../resources/monitors/LocationResults';
import { REFRESH_MS } from './metricsQuery';

interface Row {
    monitor: Monitor;
    configuration: Configuration;
    server: string | null;
    results: LocationResult[];
}

/** `fra-1 · Error · 40 ms`: one location's latest check, readable without its colour. */
const chipLabel = (r: LocationResult) =>
    [r.location, LOCATION_LEVEL[r.level].label, r.latency_ms === null ? null : `${Math.round(r.latency_ms)} ms`]
        .filter(Boolean)
        .join(' · ');

const bare = { listStyle: 'none', p: 0, m: 0 } as const;

/**
 * Below the servers: the monitors several probe locations check, each with every location's latest result, so a
 * failure seen from one network stands apart from one seen everywhere. Absent where every monitor is checked from one
 * place (always in the embedded profile), and while the results cannot be read: the servers' table says what failed
 * there, and this part comes back on the next refresh.
 */
export const ProbeLocations = ({ configurations }: { configurations: Configuration[] }) => {
    const dataProvider = useNodeMonitorDataProvider();
    const { data } = useQuery({
        queryKey: ['nodeMonitor', 'networkStatus', 'locationResults'],
        queryFn: () => dataProvider.getMonitorLocationResults(),
        refetchInterval: REFRESH_MS,
        retry: false,
    });
    const known = new Map(
        configurations.flatMap((configuration) =>
            (configuration.monitors ?? []).map((monitor) => [monitor.id, { monitor, configuration }] as const)
        )
    );
    const rows: Row[] = (data ?? []).flatMap(({ monitor_id, location_results }) => {
        const found = known.get(monitor_id);
        if (!found || location_results.length === 0) return [];
        const server =
            found.monitor.server?.name ??
            found.configuration.servers?.find((s) => s.id === found.monitor.server_id)?.name ??
            null;
        return [{ ...found, server, results: location_results }];
    });
    if (rows.length === 0) return null;

    return (
        <Card variant="outlined" sx={{ mt: 2 }}>
            <CardHeader title="Probe locations" subheader="The latest check from each location that checks a monitor" />
            <CardContent sx={{ pt: 0 }}>
                <Box component="ul" aria-label="Monitors checked from several locations" sx={bare}>
                    {rows.map(({ monitor, configuration, server, results }) => (
                        <Box
                            component="li"
                            key={monitor.id}
                            sx={{ py: 1, borderBottom: 1, borderColor: 'divider', '&:last-child': { borderBottom: 0 } }}
                        >
                            <Typography variant="body2">
                                <Link component={RouterLink} to={`/monitor/${monitor.id}`}>
                                    {monitor.name}
                                </Link>
                                <Box component="span" sx={{ color: 'text.secondary' }}>
                                    {` · ${configuration.name}${server ? ` · ${server}` : ''}`}
                                </Box>
                            </Typography>
                            <Box
                                component="ul"
                                aria-label={`Locations checking ${monitor.name}`}
                                sx={{ ...bare, mt: 0.5, display: 'flex', flexWrap: 'wrap', gap: 0.5 }}
                            >
                                {results.map((r) => (
                                    <li key={r.location}>
                                        <Chip
                                            size="small"
                                            color={LOCATION_LEVEL[r.level].color}
                                            variant={r.level === 'none' ? 'outlined' : 'filled'}
                                            label={chipLabel(r)}
                                        />
                                    </li>
                                ))}
                            </Box>
                        </Box>
                    ))}
                </Box>
            </CardContent>
        </Card>
    );
};
