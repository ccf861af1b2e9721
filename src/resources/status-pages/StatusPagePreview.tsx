import { Box, Card, CardContent, Chip, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useRecordContext } from 'react-admin';

import type { PublicStatus, StatusPage } from '../../../common/status-pages';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';

const WORDS: Record<PublicStatus, { label: string; color: 'success' | 'warning' | 'error' }> = {
    operational: { label: 'Operational', color: 'success' },
    degraded: { label: 'Degraded', color: 'warning' },
    down: { label: 'Down', color: 'error' },
};

/** What visitors of the page see now, refreshed every 30 s; it follows the saved page, not unsaved edits. */
export const StatusPagePreview = () => {
    const page = useRecordContext<StatusPage>();
    const dataProvider = useNodeMonitorDataProvider();
    const { data, error } = useQuery({
        queryKey: ['status-pages', 'preview', page?.id, page?.updated_at],
        queryFn: () => dataProvider.getStatusPagePreview(page?.id ?? 0),
        enabled: page !== undefined,
        refetchInterval: 30_000,
    });
    return (
        <Card variant="outlined" sx={{ m: 2 }}>
            <CardContent>
                <Typography component="h2" variant="h6">
                    Preview
                </Typography>
                {error ? <Typography color="error">Failed to load the preview</Typography> : null}
                {data ? (
                    <>
                        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, my: 1, flexWrap: 'wrap' }}>
                            <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{data.title}</Typography>
                            <Chip size="small" label={WORDS[data.status].label} color={WORDS[data.status].color} />
                        </Box>
                        {data.components.length === 0 ? (
                            <Typography color="text.secondary">No monitors chosen yet</Typography>
                        ) : (
                            <List dense aria-label="Components">
                                {data.components.map((c) => (
                                    <ListItem key={c.name} disableGutters>
                                        <ListItemText
                                            primary={c.name}
                                            secondary={`${WORDS[c.status].label} · ${
                                                c.uptime_90d === null
                                                    ? 'no data yet'
                                                    : `${c.uptime_90d.toFixed(2)} % over 90 days`
                                            }`}
                                        />
                                    </ListItem>
                                ))}
                            </List>
                        )}
                        <Typography variant="body2" color="text.secondary">
                            {data.incidents.filter((i) => i.status !== 'resolved').length} open incident(s),{' '}
                            {data.maintenance.length} maintenance window(s) ahead
                        </Typography>
                    </>
                ) : null}
            </CardContent>
        </Card>
    );
};
