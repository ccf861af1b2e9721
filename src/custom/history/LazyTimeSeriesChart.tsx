import { Skeleton } from '@mui/material';
import { lazy, Suspense } from 'react';

import type { TimeSeriesChartProps } from './TimeSeriesChart';

// The chart library stays out of the initial bundle: it loads with the first page that draws a chart.
const TimeSeriesChart = lazy(async () => ({ default: (await import('./TimeSeriesChart')).TimeSeriesChart }));

export const LazyTimeSeriesChart = (props: TimeSeriesChartProps) => (
    <Suspense fallback={<Skeleton variant="rectangular" height={220} aria-label="Loading chart" />}>
        <TimeSeriesChart {...props} />
    </Suspense>
);
