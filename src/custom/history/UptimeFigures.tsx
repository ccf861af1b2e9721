import { Box } from '@mui/material';

import type { MonitorHistory, UptimePeriod } from '../../providers/history';
import { formatUptime } from './format';

const PERIODS: { key: UptimePeriod; label: string }[] = [
    { key: '24h', label: '24 hours' },
    { key: '7d', label: '7 days' },
    { key: '30d', label: '30 days' },
    { key: '1y', label: '1 year' },
];

/** Uptime over 24 h, 7 d, 30 d and 1 y as a list of terms and figures (N/A for a period without checks). */
export const UptimeFigures = ({ uptime }: { uptime: MonitorHistory['uptime'] | undefined }) => (
    <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(80px, 1fr))', gap: 2, m: 0 }}
    >
        {PERIODS.map(({ key, label }) => (
            <Box key={key}>
                <Box component="dt" sx={{ typography: 'caption', color: 'text.secondary' }}>
                    {label}
                </Box>
                <Box component="dd" sx={{ typography: 'h6', m: 0 }}>
                    {formatUptime(uptime?.[key])}
                </Box>
            </Box>
        ))}
    </Box>
);
