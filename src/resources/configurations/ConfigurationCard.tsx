import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import {
    Box,
    Card,
    CardActionArea,
    CardActions,
    CardContent,
    Chip,
    IconButton,
    Stack,
    Tooltip,
    Typography,
} from '@mui/material';
import { useNavigate } from 'react-router-dom';

import type { Configuration } from '../../../common/entities';
import { Uptime30d } from '../../custom/history/Uptime30d';
import { ActiveChip } from '../../ui/ActiveChip';
import { HealthBadge } from '../monitors/HealthBadge';

export interface ConfigurationCardProps {
    configuration: Configuration;
    /** Absent for read-only users: no Edit and Delete buttons. */
    onEdit?: (configuration: Configuration) => void;
    onDelete?: (configuration: Configuration) => void;
}

/**
 * Name, Active/Inactive, health (enabled only), chain, server and monitor counts and the 30-day uptime; a click
 * opens the detail.
 */
export const ConfigurationCard = ({ configuration, onEdit, onDelete }: ConfigurationCardProps) => {
    const navigate = useNavigate();
    const { name, chain, is_enabled, servers = [], monitors = [] } = configuration;
    return (
        <Card
            component="article"
            aria-label={`Configuration ${name}`}
            variant="outlined"
            sx={{ height: '100%', display: 'flex', flexDirection: 'column', position: 'relative' }}
        >
            <CardContent sx={{ flex: 1 }}>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1, mb: 1 }}>
                    {/*
                     * The button holds only the name, so its label contains all the text it shows (WCAG 2.5.3);
                     * its ::after spans the card, so a click anywhere on the card still opens the detail.
                     */}
                    <CardActionArea
                        onClick={() => navigate(`/configurations/${configuration.id}`)}
                        aria-label={`Open configuration ${name}`}
                        sx={{
                            position: 'static',
                            minWidth: 0,
                            '&::after': { content: '""', position: 'absolute', inset: 0 },
                        }}
                    >
                        <Typography variant="h6" component="h2" noWrap>
                            {name}
                        </Typography>
                    </CardActionArea>
                    <ActiveChip active={is_enabled} />
                </Box>
                <Stack direction="row" spacing={1} sx={{ mb: 1 }}>
                    <Chip size="small" variant="outlined" label={chain} />
                    {is_enabled && <HealthBadge monitors={monitors} />}
                </Stack>
                <Typography variant="body2" color="text.secondary">
                    Servers: {servers.length} · Monitors: {monitors.length}
                </Typography>
                <Uptime30d record={configuration} />
            </CardContent>
            {(onEdit || onDelete) && (
                <CardActions sx={{ justifyContent: 'flex-end', position: 'relative', zIndex: 1 }}>
                    {onEdit && (
                        <Tooltip title="Edit">
                            <IconButton aria-label={`Edit configuration ${name}`} onClick={() => onEdit(configuration)}>
                                <EditIcon />
                            </IconButton>
                        </Tooltip>
                    )}
                    {onDelete && (
                        <Tooltip title="Delete">
                            <IconButton
                                aria-label={`Delete configuration ${name}`}
                                color="error"
                                onClick={() => onDelete(configuration)}
                            >
                                <DeleteIcon />
                            </IconButton>
                        </Tooltip>
                    )}
                </CardActions>
            )}
        </Card>
    );
};
