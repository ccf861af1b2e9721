import { Alert, Box, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import { useState } from 'react';

import type { MountpointHistory } from '../../providers/history';
import { ChartFigure } from '../../custom/history/ChartFigure';
import { formatDaysUntilFull } from '../../custom/history/format';
import { LazyTimeSeriesChart } from '../../custom/history/LazyTimeSeriesChart';
import { RangePicker } from '../../custom/history/RangePicker';
import { rangeOf } from '../../custom/history/ranges';
import { useFittingRange } from '../../custom/history/useFittingRange';
import { useDiskHistory } from '../../custom/history/useHistory';
import { errorReason } from '../../ui/format';

const summary = (mountpoint: MountpointHistory) => {
    const latest = mountpoint.points.at(-1)?.used_percent;
    const now = latest === undefined ? 'No reading' : `${Math.round(latest)}% used`;
    return `${now} · ${formatDaysUntilFull(mountpoint.days_until_full)}`;
};

/**
 * Disk use per mountpoint over the chosen range, each with its days-until-full projection (the server fits the
 * last 7 days of growth; "Not growing" when flat or shrinking).
 */
export const DiskHistoryCard = ({ serverId }: { serverId: number }) => {
    const [oldest, setOldest] = useState<string>();
    const [rangeKey, setRangeKey] = useFittingRange('7d', oldest);
    const { data, error, isPending } = useDiskHistory(serverId, rangeKey);
    const first = data?.mountpoints
        .map((m) => m.points[0]?.t)
        .filter((t): t is string => t !== undefined)
        .sort()[0];
    if (first !== undefined && oldest === undefined) setOldest(first);
    const words = rangeOf(rangeKey).words;

    return (
        <Card variant="outlined">
            <CardContent>
                <Box
                    sx={{
                        display: 'flex',
                        flexWrap: 'wrap',
                        gap: 1,
                        alignItems: 'center',
                        justifyContent: 'space-between',
                        mb: 2,
                    }}
                >
                    <Typography variant="h6" component="h2">
                        Disk Usage Over Time
                    </Typography>
                    <RangePicker value={rangeKey} onChange={setRangeKey} />
                </Box>
                {error && !data ? (
                    <Alert severity="warning">Disk history is not available: {errorReason(error)}</Alert>
                ) : isPending || !data ? (
                    <CircularProgress size={20} aria-label="Loading disk history" />
                ) : data.mountpoints.length === 0 ? (
                    <Typography color="text.secondary">No disk readings in {words}</Typography>
                ) : (
                    <Stack spacing={3}>
                        {data.mountpoints.map((mountpoint) => (
                            <ChartFigure
                                key={mountpoint.mountpoint}
                                title={`Disk ${mountpoint.mountpoint}`}
                                summary={summary(mountpoint)}
                            >
                                <LazyTimeSeriesChart
                                    times={mountpoint.points.map((point) => new Date(point.t))}
                                    from={new Date(data.range.from)}
                                    to={new Date(data.range.to)}
                                    unit="%"
                                    yMax={100}
                                    series={[
                                        {
                                            label: 'Used (%)',
                                            tone: 'primary',
                                            values: mountpoint.points.map((point) => point.used_percent),
                                        },
                                    ]}
                                />
                            </ChartFigure>
                        ))}
                    </Stack>
                )}
            </CardContent>
        </Card>
    );
};
