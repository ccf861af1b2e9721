import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import {
    Alert,
    Box,
    Card,
    CardActions,
    CardContent,
    Chip,
    IconButton,
    Stack,
    Tooltip,
    Typography,
} from '@mui/material';

import type { NotificationChannel } from '../../../common/entities';
import { ActiveChip } from '../../ui/ActiveChip';
import { formatDate, formatDateTime } from '../../ui/format';

export interface NotificationChannelCardProps {
    channel: NotificationChannel;
    /** Absent for read-only users: no edit button. */
    onEdit?: (channel: NotificationChannel) => void;
    /** Absent for read-only users: no delete button. */
    onDelete?: (channel: NotificationChannel) => void;
}

/** Why the channel's messages are not arriving, and since when (its Active chip only says it is switched on). */
export function deliveryFailure(channel: NotificationChannel): string {
    const since = channel.delivery?.since ? ` since ${formatDateTime(channel.delivery.since)}` : '';
    return `Deliveries failing${since}: ${channel.delivery?.last_error ?? 'unknown error'}`;
}

/** One channel in the grid: name, type chip, Active/Inactive, created date, edit and delete. */
export const NotificationChannelCard = ({ channel, onEdit, onDelete }: NotificationChannelCardProps) => (
    <Card variant="outlined" sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
        <CardContent sx={{ flex: 1 }}>
            <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1, mb: 1 }}>
                <Typography variant="h6" component="h2" sx={{ wordBreak: 'break-word' }}>
                    {channel.name}
                </Typography>
                <ActiveChip active={channel.is_enabled} />
            </Box>
            <Stack direction="row" spacing={1} sx={{ mb: 1 }}>
                <Chip size="small" color="info" variant="outlined" label={channel.type} />
            </Stack>
            <Typography variant="body2" color="text.secondary">
                Created: {formatDate(channel.created_at)}
            </Typography>
            {channel.is_enabled && channel.delivery?.status === 'failing' && (
                <Alert severity="error" sx={{ mt: 1, wordBreak: 'break-word' }}>
                    {deliveryFailure(channel)}
                </Alert>
            )}
        </CardContent>
        {(onEdit || onDelete) && (
            <CardActions sx={{ justifyContent: 'flex-end' }}>
                {onEdit && (
                    <Tooltip title="Edit">
                        <IconButton aria-label={`Edit channel ${channel.name}`} onClick={() => onEdit(channel)}>
                            <EditIcon />
                        </IconButton>
                    </Tooltip>
                )}
                {onDelete && (
                    <Tooltip title="Delete">
                        <IconButton
                            aria-label={`Delete channel ${channel.name}`}
                            color="error"
                            onClick={() => onDelete(channel)}
                        >
                            <DeleteIcon />
                        </IconButton>
                    </Tooltip>
                )}
            </CardActions>
        )}
    </Card>
);
