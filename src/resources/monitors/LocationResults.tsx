import { Card, CardContent, Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';

import type { Monitor } from '../../../common/entities';
import type { LocationResult } from '../../../common/locations';
import { formatDateTime } from '../../ui/format';

/** How a location's result reads, here and on the Network Status page. */
export const LOCATION_LEVEL: Record<
    LocationResult['level'],
    { label: string; color: 'success' | 'warning' | 'error' | 'default' }
> = {
    ok: { label: 'Healthy', color: 'success' },
    warning: { label: 'Warning', color: 'warning' },
    error: { label: 'Error', color: 'error' },
    none: { label: 'No answer', color: 'default' },
};

/**
 * The latest check from each location of a monitor checked from several: its result, message and
 * latency, and how many must agree before the monitor is in Error. Absent for a monitor checked from one place.
 */
export const LocationResults = ({ monitor }: { monitor: Monitor }) => {
    const results = monitor.location_results;
    if (!results?.length) return null;
    return (
        <Card variant="outlined" sx={{ mb: 2 }}>
            <CardContent>
                <Typography variant="h6" component="h2" gutterBottom>
                    Locations
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                    {`Error when ${monitor.confirm} of ${results.length} location${results.length === 1 ? '' : 's'} see a failure`}
                </Typography>
                <Table size="small" aria-label="Latest result per location">
                    <TableHead>
                        <TableRow>
                            <TableCell>Location</TableCell>
                            <TableCell>Result</TableCell>
                            <TableCell>Latency</TableCell>
                            <TableCell>Message</TableCell>
                            <TableCell>Checked</TableCell>
                        </TableRow>
                    </TableHead>
                    <TableBody>
                        {results.map((r) => (
                            <TableRow key={r.location}>
                                <TableCell>{r.location}</TableCell>
                                <TableCell>
                                    <Chip
                                        size="small"
                                        label={LOCATION_LEVEL[r.level].label}
                                        color={LOCATION_LEVEL[r.level].color}
                                    />
                                </TableCell>
                                <TableCell>{r.latency_ms === null ? '—' : `${Math.round(r.latency_ms)} ms`}</TableCell>
                                <TableCell>{r.message ?? ''}</TableCell>
                                <TableCell>{formatDateTime(r.checked_at)}</TableCell>
                            </TableRow>
                        ))}
                    </TableBody>
                </Table>
            </CardContent>
        </Card>
    );
};
