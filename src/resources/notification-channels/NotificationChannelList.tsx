import AddIcon from '@mui/icons-material/Add';
import { Box, Button, Grid, Typography } from '@mui/material';
import { ListBase, Title, useCanAccess, useGetIdentity, useListContext } from 'react-admin';

import type { NotificationChannel } from '../../../common/entities';
import { LoadingScreen } from '../../custom/layout/LoadingScreen';
import { retryUnlessClientError } from '../../ui/retry';
import { useConfirmedDelete } from '../../ui/useConfirmedDelete';
import { useRecordDialog } from '../../ui/useSaveDialog';
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
    const { identity } = useGetIdentity();
    const { canAccess: canWrite } = useCanAccess({ resource: 'notification-channels', action: 'edit' });
    const dialog = useRecordDialog<NotificationChannel>();
    const remove = useConfirmedDelete<NotificationChannel>('notification-channels', {
        noun: 'notification channel',
        nameOf: (channel) => channel.name,
        deleted: DELETED,
        failed: () => DELETE_FAILED,
        onDeleted: () => refetch(),
    });
    const channels = error ? [] : (data ?? []);

    return (
        <Box>
            <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 3 }}>
                <Typography variant="h4" component="h1">
                    Notification Channels
                </Typography>
                {canWrite && (
                    <Button variant="contained" startIcon={<AddIcon />} onClick={dialog.openAdd}>
                        Add Channel
                    </Button>
                )}
            </Box>
            {isPending && !error ? (
                <LoadingScreen />
            ) : channels.length === 0 ? (
                <Box sx={{ py: 6, textAlign: 'center' }}>
                    <Typography variant="h6" component="p">
                        No notification channels configured
                    </Typography>
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
                                onEdit={canWrite ? dialog.openEdit : undefined}
                                onDelete={canWrite ? remove.ask : undefined}
                            />
                        </Grid>
                    ))}
                </Grid>
            )}
            {canWrite && (
                <NotificationChannelDialog
                    open={dialog.open}
                    channel={dialog.record}
                    showCompany={!!identity?.is_super_admin}
                    defaultCompanyId={(identity?.company_id as number | null | undefined) ?? null}
                    onClose={dialog.close}
                    onSaved={() => refetch()}
                />
            )}
            {remove.confirm}
        </Box>
    );
};
