import { type SxProps, type Theme, Typography } from '@mui/material';

import { formatUptime, readUptime30d } from './format';

/**
 * `Uptime (30 d): 99.95%` under a monitor's or configuration's name; nothing when the record carries no uptime
 * (an API without history), so the spec's cells read as before.
 */
export const Uptime30d = ({ record, sx }: { record: object; sx?: SxProps<Theme> }) => {
    const uptime = readUptime30d(record);
    if (uptime === undefined) return null;
    return (
        <Typography
            component="span"
            variant="caption"
            color="text.secondary"
            sx={[{ display: 'block' }, ...(Array.isArray(sx) ? sx : [sx])]}
        >
            Uptime (30 d): {formatUptime(uptime)}
        </Typography>
    );
};
