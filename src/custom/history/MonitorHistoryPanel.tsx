import { Alert, Box, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import { useState } from 'react';

import type { Monitor } from '../../../common/entities';
import { MONITOR_CATALOGUE } from '../../../common/monitor-types';
import type { HistoryPoint } from '../../providers/history';
import { errorReason } from '../../ui/format';
import { ChartFigure } from './ChartFigure';
import { CsvDownloadLink } from './CsvDownloadLink';
import { LazyTimeSeriesChart } from './LazyTimeSeriesChart';
import { RangePicker } from './RangePicker';
import { rangeOf } from './ranges';
import { useFittingRange } from './useFittingRange';
import { StatusBar } from './StatusBar';
import type { IncidentSpan } from './TimeSeriesChart';
import { UptimeFigures } from './UptimeFigures';
import { useMonitorChecks, useMonitorHistory } from './useHistory';

export interface MonitorHistoryPanelProps {
    monitor: Pick<Monitor, 'id' | 'type'>;
    /** Incidents to mark on the charts (the monitor page passes the monitor's own); none when absent. */
    incidentSpans?: IncidentSpan[];
}

const numbers = (values: (number | null)[]) => values.filter((value): value is number => value !== null);
const round = (value: number) => Math.round(value * 100) / 100;

function latencySummary(points: HistoryPoint[], words: string): string {
    const averages = numbers(points.map((point) => point.latency_avg_ms));
    const maxima = numbers(points.map((point) => point.latency_max_ms));
    if (averages.length === 0) return `No latency recorded in ${words}`;
    const mean = averages.reduce((sum, value) => sum + value, 0) / averages.length;
    const highest = maxima.length ? Math.max(...maxima) : Math.max(...averages);
    return `Average ${Math.round(mean)} ms, highest ${Math.round(highest)} ms over ${words}`;
}

function readingSummary(points: HistoryPoint[], words: string): string | null {
    const last = numbers(points.map((point) => point.value_last));
    if (last.length === 0) return null;
    const lows = numbers(points.map((point) => point.value_min ?? point.value_last));
    const highs = numbers(points.map((point) => point.value_max ?? point.value_last));
    return `Latest ${round(last[last.length - 1])}, lowest ${round(Math.min(...lows))}, highest ${round(Math.max(...highs))} over ${words}`;
}

/**
 * The monitor's record: the last 100 checks as a status bar, uptime over 24 h … 1 y, and latency and the type's
 * reading over the chosen range, with incidents shaded and the range's CSV export.
 */
export const MonitorHistoryPanel = ({ monitor, incidentSpans }: MonitorHistoryPanelProps) => {
    const [oldest, setOldest] = useState<string>();
    const [rangeKey, setRangeKey] = useFittingRange('24h', oldest);
    const checks = useMonitorChecks(monitor.id);
    const history = useMonitorHistory(monitor.id, rangeKey);
    const first = history.data?.history.points[0]?.t;
    if (first !== undefined && oldest === undefined) setOldest(first);
    const words = rangeOf(rangeKey).words;
    const points = history.data?.history.points ?? [];
    const range = history.data?.range;
    const readingChart = MONITOR_CATALOGUE[monitor.type]?.reading;
    const readingLabel = readingChart?.label ?? 'Reading';
    const reading = readingSummary(points, words);
    const chartFrame = range && {
        times: points.map((point) => new Date(point.t)),
        from: new Date(range.from),
        to: new Date(range.to),
        incidents: incidentSpans,
    };

    return (
        <Stack spacing={2} sx={{ mb: 2 }}>
            <Card variant="outlined">
                <CardContent>
                    <Typography variant="h6" component="h2" gutterBottom>
                        Recent Checks
                    </Typography>
                    {checks.error ? (
                        <Alert severity="warning">Checks are not available: {errorReason(checks.error)}</Alert>
                    ) : checks.isPending ? (
                        <CircularProgress size={20} aria-label="Loading checks" />
                    ) : (
                        <StatusBar checks={checks.data ?? []} />
                    )}
                    <Typography variant="subtitle1" component="h3" sx={{ mt: 2, mb: 1 }}>
                        Uptime
                    </Typography>
                    <UptimeFigures uptime={history.data?.history.uptime} />
                </CardContent>
            </Card>
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
                            Over Time
                        </Typography>
                        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
                            <RangePicker value={rangeKey} onChange={setRangeKey} />
                            {range && <CsvDownloadLink monitorId={monitor.id} range={range} />}
                        </Box>
                    </Box>
                    {history.error && !history.data ? (
                        <Alert severity="warning">History is not available: {errorReason(history.error)}</Alert>
                    ) : !chartFrame ? (
                        <CircularProgress size={20} aria-label="Loading history" />
                    ) : points.length === 0 ? (
                        <Typography color="text.secondary">No checks recorded in {words}</Typography>
                    ) : (
                        <Stack spacing={3}>
                            <ChartFigure title="Latency (ms)" summary={latencySummary(points, words)}>
                                <LazyTimeSeriesChart
                                    {...chartFrame}
                                    unit="ms"
                                    series={[
                                        {
                                            label: 'Average',
                                            tone: 'primary',
                                            values: points.map((p) => p.latency_avg_ms),
                                        },
                                        {
                                            label: 'Highest',
                                            tone: 'warning',
                                            values: points.map((p) => p.latency_max_ms),
                                        },
                                    ]}
                                />
                            </ChartFigure>
                            {reading && (
                                <ChartFigure title={readingLabel} summary={reading}>
                                    <LazyTimeSeriesChart
                                        {...chartFrame}
                                        yMax={readingChart?.max}
                                        series={[
                                            {
                                                label: readingLabel,
                                                tone: 'info',
                                                values: points.map((p) => p.value_last),
                                            },
                                        ]}
                                    />
                                </ChartFigure>
                            )}
                        </Stack>
                    )}
                </CardContent>
            </Card>
        </Stack>
    );
};
