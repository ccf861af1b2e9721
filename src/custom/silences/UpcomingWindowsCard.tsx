import { Box, Card, CardContent, Chip, Link, Typography } from '@mui/material';
import { useGetList } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';

import type { MaintenanceWindow } from '../../../common/silences';
import { targetLabel, windowWhen } from './windowText';

/** How far ahead the dashboard announces a window. */
const AHEAD_MS = 7 * 24 * 3600_000;

/** The dashboard's list of maintenance windows on now or starting within a week; nothing when there are none. */
export const UpcomingWindowsCard = () => {
    const { data } = useGetList<MaintenanceWindow>(
        'maintenance-windows',
        { pagination: { page: 1, perPage: 1000 }, sort: { field: 'next_starts_at', order: 'ASC' } },
        { refetchInterval: 60_000 }
    );
    const soon = (data ?? []).filter(
        (w) => w.active || (w.next_starts_at !== null && Date.parse(w.next_starts_at) - Date.now() < AHEAD_MS)
    );
    if (soon.length === 0) return null;
    return (
        <Card variant="outlined" sx={{ mb: 3 }} component="section" aria-label="Maintenance windows">
            <CardContent>
                <Typography variant="h6" component="h2" gutterBottom>
                    Maintenance windows
                </Typography>
                {soon.map((w) => (
                    <Box key={w.id} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 0.5 }}>
                        {w.active && <Chip size="small" color="warning" label="On now" />}
                        <Link component={RouterLink} to={`/configurations/${w.target.configuration_id}`}>
                            {targetLabel(w.target)}
                        </Link>
                        <Typography component="span" variant="body2">
                            {windowWhen(w)} — {w.reason}
                        </Typography>
                    </Box>
                ))}
            </CardContent>
        </Card>
    );
};
