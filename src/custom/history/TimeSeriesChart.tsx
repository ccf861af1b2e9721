import { useTheme } from '@mui/material';
import { useDrawingArea, useXScale } from '@mui/x-charts/hooks';
import { LineChart } from '@mui/x-charts/LineChart';

/** A span to mark on a chart (an incident); `to` null while it is still open. */
export interface IncidentSpan {
    from: string;
    to: string | null;
}

export interface ChartSeries {
    label: string;
    values: (number | null)[];
    /** A palette colour, so the line reads in the light and the dark theme alike. */
    tone: 'primary' | 'info' | 'warning';
}

export interface TimeSeriesChartProps {
    times: Date[];
    series: ChartSeries[];
    /** The range shown, so an empty stretch at either end stays visible as empty. */
    from: Date;
    to: Date;
    unit?: string;
    incidents?: IncidentSpan[];
    /** A fixed top for the y axis (100 for percentages). */
    yMax?: number;
}

/** Shaded bands behind the lines, one per incident within the range. */
const IncidentBands = ({ spans, end }: { spans: IncidentSpan[]; end: Date }) => {
    const x = useXScale<'time'>();
    const area = useDrawingArea();
    const theme = useTheme();
    return (
        <g>
            {spans.map((span) => {
                const left = Math.max(area.left, x(new Date(span.from)));
                const right = Math.min(area.left + area.width, x(span.to ? new Date(span.to) : end));
                if (!(right >= left)) return null;
                return (
                    <rect
                        key={`${span.from}-${span.to}`}
                        x={left}
                        y={area.top}
                        width={Math.max(2, right - left)}
                        height={area.height}
                        fill={theme.palette.error.main}
                        opacity={0.18}
                    />
                );
            })}
        </g>
    );
};

const DAY_MS = 24 * 3_600_000;
const SHORT_RANGE_MS = 1.5 * DAY_MS;

/** A time chart (MUI X Charts; loaded with the first chart, not with the app). */
export const TimeSeriesChart = ({ times, series, from, to, unit, incidents = [], yMax }: TimeSeriesChartProps) => {
    const theme = useTheme();
    const short = to.getTime() - from.getTime() <= SHORT_RANGE_MS;
    const formatTime = (value: Date) =>
        short
            ? value.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
            : value.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
    return (
        <LineChart
            height={220}
            skipAnimation
            hideLegend={series.length < 2}
            margin={{ left: 8, right: 16, top: 16, bottom: 8 }}
            xAxis={[
                {
                    scaleType: 'time',
                    data: times,
                    min: from,
                    max: to,
                    valueFormatter: formatTime,
                    // Ticks labelled with a date are at least a day apart, so no label repeats.
                    tickMinStep: short ? undefined : DAY_MS,
                },
            ]}
            yAxis={[{ min: 0, max: yMax, width: 48 }]}
            series={series.map((line) => ({
                label: line.label,
                data: line.values,
                color: theme.palette[line.tone].main,
                showMark: false,
                valueFormatter: (value: number | null) =>
                    value === null ? 'No data' : `${Math.round(value * 100) / 100}${unit ? ` ${unit}` : ''}`,
            }))}
        >
            {incidents.length > 0 && <IncidentBands spans={incidents} end={to} />}
        </LineChart>
    );
};
