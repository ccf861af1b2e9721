import AddIcon from '@mui/icons-material/Add';
import { Box, Button, Grid, Typography } from '@mui/material';
import { useState } from 'react';
import { ListBase, Title, useCanAccess, useDelete, useGetIdentity, useListContext, useNotify } from 'react-admin';

import type { NotificationChannel } from '../../../common/entities';
import { LoadingScreen } from '../../custom/layout/LoadingScreen';
import { DeleteConfirm } from '../../custom/ui/DeleteConfirm';
import { retryUnlessClientError } from '../../custom/ui/retry';
import { NotificationChannelCard } from './NotificationChannelCard';
import { NotificationChannelDialog } from './NotificationChannelDialog';

export const FETCH_FAILED = 'Failed to fetch notification channels';
export const DELETED = 'Channel deleted successfully';
export const DELETE_FAILED = 'Failed to delete channel';

/** /notification-channels: card grid with the Add Notification Channel dialog. A failed fetch is only logged. */
export const NotificationChannelList = () => (
    <ListBase<NotificationChannel>
        resource="notification-channels"
        perPage={1000}
        sort={{ field: 'name', order: 'ASC' }}
        disableSyncWithLocation
        queryOptions={{
            retry: retryUnlessClientError,
            onError: (error) => console.error(FETCH_FAILED, error),
        }}
    >
        <Title title="Notification Channels" />
        <NotificationChannelGrid />
    </ListBase>
);

const NotificationChannelGrid = () => {
    const { data, isPending, error, refetch } = useListContext<NotificationChannel>();
    const notify = useNotify();
    const { identity } = useGetIdentity();
    const { canAccess: canWrite } = useCanAccess({ resource: 'notification-channels', action: 'edit' });
    const [deleteOne, { isPending: deleting }] = useDelete<NotificationChannel>();
    const [dialog, setDialog] = useState<{ open: boolean; channel: NotificationChannel | null }>({
        open: false,
        channel: null,
    });
    const [toDelete, setToDelete] = useState<NotificationChannel | null>(null);
    const channels = error ? [] : (data ?? []);

    const confirmDelete = () => {
        if (!toDelete) return;
        deleteOne(
            'notification-channels',
            { id: toDelete.id, previousData: toDelete },
            {
                mutationMode: 'pessimistic',
                onSuccess: () => {
                    notify(DELETED, { type: 'success' });
                    setToDelete(null);
                    refetch();
                },
                onError: () => {
                    notify(DELETE_FAILED, { type: 'error' });
                    setToDelete(null);
                },
            }
        );
    };

    return (
        <Box>
            <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 3 }}>
                <Typography variant="h4" component="h1">
                    Notification Channels
                </Typography>
                {canWrite && (
                    <Button
                        variant="contained"
                        startIcon={<AddIcon />}
                        onClick={() => setDialog({ open: true, channel: null })}
                    >
                        Add Channel
                    </Button>
                )}
            </Box>
            {isPending && !error ? (
                <LoadingScreen />
            ) : channels.length === 0 ? (
                <Box sx={{ py: 6, textAlign: 'center' }}>
                    <Typography variant="h6">No notification channels configured</Typography>
                    <Typography color="text.secondary">
                        Add your first notification channel to start receiving alerts
                    </Typography>
                </Box>
            ) : (
                <Grid container spacing={2}>
                    {channels.map((channel) => (
                        <Grid key={channel.id} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
                            <NotificationChannelCard
                                channel={channel}
                                onEdit={canWrite ? (record) => setDialog({ open: true, channel: record }) : undefined}
                                onDelete={canWrite ? setToDelete : undefined}
                            />
                        </Grid>
                    ))}
                </Grid>
            )}
            {canWrite && (
                <NotificationChannelDialog
                    open={dialog.open}
                    channel={dialog.channel}
                    showCompany={!!identity?.is_super_admin}
                    defaultCompanyId={(identity?.company_id as number | null | undefined) ?? null}
                    onClose={() => setDialog({ open: false, channel: null })}
                    onSaved={() => refetch()}
                />
            )}
            <DeleteConfirm
                noun="notification channel"
                name={toDelete?.name ?? null}
                loading={deleting}
                onConfirm={confirmDelete}
                onClose={() => setToDelete(null)}
            />
        </Box>
    );
};
