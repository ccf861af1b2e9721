import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** A chart with its title and a one-line summary in words: the figures a screen reader (or a glance) needs. */
export const ChartFigure = ({ title, summary, children }: { title: string; summary: string; children: ReactNode }) => (
    <Box component="figure" aria-label={title} sx={{ m: 0 }}>
        <Typography variant="subtitle1" component="h3">
            {title}
        </Typography>
        <Typography component="figcaption" variant="body2" color="text.secondary">
            {summary}
        </Typography>
        {children}
    </Box>
);
