import { createTheme, ThemeProvider } from '@mui/material';
import { render, waitFor } from '@testing-library/react';

import { TimeSeriesChart } from '../../../src/custom/history/TimeSeriesChart';

const HOUR = 3_600_000;
const to = new Date('2026-11-24T12:00:00.000Z');
const from = new Date(to.getTime() - 24 * HOUR);
const times = Array.from({ length: 24 }, (_, index) => new Date(from.getTime() + (index + 1) * HOUR));
const iso = (hoursBeforeEnd: number) => new Date(to.getTime() - hoursBeforeEnd * HOUR).toISOString();

const drawBands = (incidents: { from: string; to: string | null }[], mode: 'light' | 'dark' = 'light') => {
    const theme = createTheme({ palette: { mode } });
    const { container } = render(
        <ThemeProvider theme={theme}>
            <TimeSeriesChart
                times={times}
                from={from}
                to={to}
                series={[{ label: 'Average', tone: 'primary', values: times.map((_, index) => 100 + index) }]}
                incidents={incidents}
            />
        </ThemeProvider>
    );
    return { container, theme };
};

describe('time series chart', () => {
    it('shades each incident in the range (an open one up to the end) in the theme error colour', async () => {
        const { container, theme } = drawBands([
            { from: iso(10), to: iso(8) },
            { from: iso(2), to: null },
            // Before the range: nothing to draw.
            { from: iso(40), to: iso(30) },
        ]);
        await waitFor(() => expect(container.querySelectorAll('.MuiLineChart-linePlot path[d]')).toHaveLength(1));
        const bands = [...container.querySelectorAll('rect')].filter(
            (rect) => rect.getAttribute('fill') === theme.palette.error.main
        );
        expect(bands).toHaveLength(2);
        const [closed, open] = bands.map((rect) => Number(rect.getAttribute('width')));
        // Two hours closed, two hours open up to now: the same width.
        expect(open).toBeCloseTo(closed, 5);
    });

    it('draws the lines in the dark palette under a dark theme', async () => {
        const { container, theme } = drawBands([], 'dark');
        await waitFor(() => expect(container.querySelectorAll('.MuiLineChart-linePlot path[d]')).toHaveLength(1));
        expect(container.querySelector('.MuiLineChart-linePlot path[d]')).toHaveAttribute(
            'stroke',
            theme.palette.primary.main
        );
        expect(theme.palette.primary.main).not.toBe(createTheme().palette.primary.main);
    });
});
