import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { Box, Card, CardContent, Chip, IconButton, Stack, Tooltip, Typography } from '@mui/material';

import type { Configuration, Monitor } from '../../../common/entities';
import { HealthBadge } from '../monitors/HealthBadge';
import { Uptime30d } from '../../custom/history/Uptime30d';
import { SilenceButton } from '../../custom/silences/SilenceButton';

export interface ConfigurationHeaderProps {
    configuration: Configuration;
    serverCount: number;
    monitors: Monitor[];
    /** Absent for read-only users: no edit and delete icons. */
    onEdit?: () => void;
    onDelete?: () => void;
}

/** Name, chain, server and monitor counts, enabled indicator, health badge, 30-day uptime, edit, delete and Silence. */
export const ConfigurationHeader = ({
    configuration,
    serverCount,
    monitors,
    onEdit,
    onDelete,
}: ConfigurationHeaderProps) => (
    <Card variant="outlined" sx={{ mb: 2 }}>
        <CardContent
            sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 2 }}
        >
            <Box>
                <Typography variant="h4" component="h1" gutterBottom>
                    {configuration.name}
                </Typography>
                <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
                    <Chip size="small" variant="outlined" color="primary" label={configuration.chain} />
                    <Chip
                        size="small"
                        variant="outlined"
                        label={`${serverCount} ${serverCount === 1 ? 'server' : 'servers'}`}
                    />
                    <Chip
                        size="small"
                        variant="outlined"
                        label={`${monitors.length} ${monitors.length === 1 ? 'monitor' : 'monitors'}`}
                    />
                    <Chip
                        size="small"
                        label={configuration.is_enabled ? 'Enabled' : 'Disabled'}
                        color={configuration.is_enabled ? 'success' : 'default'}
                    />
                    <HealthBadge monitors={monitors} />
                </Stack>
                <Uptime30d record={configuration} sx={{ mt: 1 }} />
            </Box>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <SilenceButton target={{ configuration_id: configuration.id }} name={configuration.name} />
                {onEdit && (
                    <Tooltip title="Edit">
                        <IconButton aria-label="Edit configuration" onClick={onEdit}>
                            <EditIcon />
                        </IconButton>
                    </Tooltip>
                )}
                {onDelete && (
                    <Tooltip title="Delete">
                        <IconButton aria-label="Delete configuration" color="error" onClick={onDelete}>
                            <DeleteIcon />
                        </IconButton>
                    </Tooltip>
                )}
            </Box>
        </CardContent>
    </Card>
);
