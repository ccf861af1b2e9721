import NotificationsOffIcon from '@mui/icons-material/NotificationsOff';
import { Chip, Tooltip } from '@mui/material';

import type { Monitor } from '../../../common/entities';
import { formatDateTime } from '../../ui/format';

/** "Silenced until …" beside a monitor whose alerts a silence or maintenance window holds back; the reason on hover. */
export const SilencedChip = ({ monitor }: { monitor: Pick<Monitor, 'silenced_until' | 'silence_reason'> }) => {
    if (!monitor.silenced_until) return null;
    const label = `Silenced until ${formatDateTime(monitor.silenced_until)}`;
    return (
        <Tooltip title={monitor.silence_reason ?? ''}>
            <Chip
                size="small"
                variant="outlined"
                icon={<NotificationsOffIcon />}
                label={label}
                aria-label={`${label}: ${monitor.silence_reason ?? ''}`}
            />
        </Tooltip>
    );
};
