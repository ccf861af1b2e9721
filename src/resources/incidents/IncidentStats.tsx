import { Card, CardContent, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useListContext } from 'react-admin';

import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { seconds } from './incidentFormat';

const Figure = ({ label, value, detail }: { label: string; value: string; detail: string }) => (
    <Card variant="outlined" sx={{ flex: 1 }}>
        <CardContent>
            <Typography color="text.secondary" variant="body2">
                {label}
            </Typography>
            <Typography variant="h5" component="p" aria-label={label}>
                {value}
            </Typography>
            <Typography color="text.secondary" variant="caption">
                {detail}
            </Typography>
        </CardContent>
    </Card>
);

/**
 * MTTA and MTTR over every incident the list's filter matches (not only the page shown), computed by the server
 * from the same filter as the list, so the figures always belong to the incidents listed.
 */
export const IncidentStats = () => {
    const { filterValues } = useListContext();
    const dataProvider = useNodeMonitorDataProvider();
    const { data } = useQuery({
        queryKey: ['incidents', 'stats', filterValues],
        queryFn: () => dataProvider.getIncidentStats(filterValues),
    });
    const plural = (n: number, word: string) => `${n} ${word} incident${n === 1 ? '' : 's'}`;
    return (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
            <Figure label="Incidents" value={String(data?.count ?? '—')} detail="matching the filters" />
            <Figure
                label="MTTA"
                value={seconds(data?.mtta_seconds)}
                detail={`mean time to acknowledge, over ${plural(data?.acknowledged ?? 0, 'acknowledged')}`}
            />
            <Figure
                label="MTTR"
                value={seconds(data?.mttr_seconds)}
                detail={`mean time to recover, over ${plural(data?.closed ?? 0, 'closed')}`}
            />
        </Stack>
    );
};
