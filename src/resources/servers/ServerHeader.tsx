import EditIcon from '@mui/icons-material/Edit';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { Box, Button, Card, CardContent, Chip, Link, Stack, Typography } from '@mui/material';

import type { Monitor, Server } from '../../../common/entities';
import { HealthBadge } from '../monitors/HealthBadge';
import { SilenceButton } from '../../custom/silences/SilenceButton';

export interface ServerHeaderProps {
    server: Server;
    monitors: Monitor[];
    /** Absent for read-only users: no Edit Server button. */
    onEdit?: () => void;
}

/** Name, enabled status and health, address, monitor count, Edit Server and a jump to the monitors. */
export const ServerHeader = ({ server, monitors, onEdit }: ServerHeaderProps) => (
    <Card variant="outlined" sx={{ mb: 2 }}>
        <CardContent
            sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 2 }}
        >
            <Box sx={{ minWidth: 0 }}>
                <Typography variant="h4" component="h1" gutterBottom sx={{ wordBreak: 'break-word' }}>
                    {server.name}
                </Typography>
                <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, alignItems: 'center' }}>
                    <Chip
                        size="small"
                        label={server.is_enabled ? 'Enabled' : 'Disabled'}
                        color={server.is_enabled ? 'success' : 'default'}
                    />
                    <HealthBadge monitors={monitors} />
                    <Chip
                        size="small"
                        variant="outlined"
                        label={`${monitors.length} ${monitors.length === 1 ? 'monitor' : 'monitors'}`}
                    />
                    <Link
                        href={server.address}
                        target="_blank"
                        rel="noopener noreferrer"
                        variant="body2"
                        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, wordBreak: 'break-all' }}
                    >
                        {server.address}
                        <OpenInNewIcon sx={{ fontSize: 14 }} />
                    </Link>
                </Stack>
            </Box>
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
                <SilenceButton target={{ server_id: server.id }} name={server.name} />
                <Button variant="outlined" startIcon={<MonitorHeartIcon />} href="#server-monitors">
                    View Monitors
                </Button>
                {onEdit && (
                    <Button variant="contained" startIcon={<EditIcon />} onClick={onEdit}>
                        Edit Server
                    </Button>
                )}
            </Stack>
        </CardContent>
    </Card>
);
