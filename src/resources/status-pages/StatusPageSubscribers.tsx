import { Button, Card, CardContent, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useNotify, useRecordContext } from 'react-admin';

import type { StatusPage } from '../../../common/status-pages';
import { errorReason, formatDateTime } from '../../ui/format';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';

/** Who subscribed to the page (e-mail after confirming, webhooks at once); an admin may remove any of them. */
export const StatusPageSubscribers = () => {
    const page = useRecordContext<StatusPage>();
    const api = useNodeMonitorDataProvider();
    const dataProvider = useDataProvider();
    const notify = useNotify();
    const { data = [], refetch } = useQuery({
        queryKey: ['status-pages', page?.id, 'subscribers'],
        queryFn: () => api.getStatusPageSubscribers(page?.id ?? 0),
        enabled: page !== undefined,
    });
    const remove = async (subscriberId: number) => {
        try {
            await dataProvider.delete(`status-pages/${page?.id}/subscribers`, { id: subscriberId });
            notify('Subscriber removed', { type: 'success' });
            await refetch();
        } catch (error) {
            notify(`Failed! Error: ${errorReason(error)}`, { type: 'error' });
        }
    };
    return (
        <Card variant="outlined" sx={{ m: 2 }}>
            <CardContent sx={{ overflowX: 'auto' }}>
                <Typography component="h2" variant="h6">
                    Subscribers
                </Typography>
                {data.length === 0 ? (
                    <Typography color="text.secondary">
                        Nobody yet: visitors subscribe on the page, by e-mail or with a webhook.
                    </Typography>
                ) : (
                    <Table size="small" aria-label="Subscribers">
                        <TableHead>
                            <TableRow>
                                <TableCell>Address</TableCell>
                                <TableCell>Kind</TableCell>
                                <TableCell>Since</TableCell>
                                <TableCell>Actions</TableCell>
                            </TableRow>
                        </TableHead>
                        <TableBody>
                            {data.map((s) => (
                                <TableRow key={s.id}>
                                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{s.address}</TableCell>
                                    <TableCell>
                                        {s.kind === 'email' ? 'E-mail' : 'Webhook'}
                                        {s.confirmed ? '' : ' (not confirmed)'}
                                    </TableCell>
                                    <TableCell>{formatDateTime(s.created_at)}</TableCell>
                                    <TableCell>
                                        <Button size="small" color="error" onClick={() => remove(s.id)}>
                                            Remove
                                        </Button>
                                    </TableCell>
                                </TableRow>
                            ))}
                        </TableBody>
                    </Table>
                )}
            </CardContent>
        </Card>
    );
};
