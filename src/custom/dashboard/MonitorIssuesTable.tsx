import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import VisibilityIcon from '@mui/icons-material/Visibility';
import {
    Box,
    Chip,
    IconButton,
    Link,
    Table,
    TableBody,
    TableCell,
    TableContainer,
    TableHead,
    TableRow,
    Tooltip,
    Typography,
} from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';

import { monitorHealth } from '../../../common/health';
import type { Monitor } from '../../../common/entities';
import { formatDateTime } from '../ui/format';

export interface MonitorIssuesTableProps {
    monitors: Monitor[];
    /** 'No critical issues found' or 'No warnings found'. */
    emptyText: string;
}

const HEALTH_CHIP = {
    error: { label: 'Error', color: 'error' },
    warning: { label: 'Warning', color: 'warning' },
    healthy: { label: 'Healthy', color: 'success' },
} as const;

/** A tab of the System Monitoring panel: failing or warning monitors, each with a way to its server. */
export const MonitorIssuesTable = ({ monitors, emptyText }: MonitorIssuesTableProps) => {
    if (monitors.length === 0) {
        return (
            <Box sx={{ py: 6, textAlign: 'center' }}>
                <CheckCircleIcon color="success" sx={{ fontSize: 48 }} />
                <Typography variant="h6">{emptyText}</Typography>
                <Typography color="text.secondary">All systems are running smoothly</Typography>
            </Box>
        );
    }
    return (
        <TableContainer>
            <Table size="small">
                <TableHead>
                    <TableRow>
                        <TableCell>Status</TableCell>
                        <TableCell>Configuration</TableCell>
                        <TableCell>Monitor</TableCell>
                        <TableCell>Server</TableCell>
                        <TableCell>Message</TableCell>
                        <TableCell>Last Check</TableCell>
                        <TableCell align="right">Actions</TableCell>
                    </TableRow>
                </TableHead>
                <TableBody>
                    {monitors.map((monitor) => {
                        const chip = HEALTH_CHIP[monitorHealth(monitor)];
                        return (
                            <TableRow key={monitor.id}>
                                <TableCell>
                                    <Chip size="small" label={chip.label} color={chip.color} />
                                </TableCell>
                                <TableCell>
                                    {monitor.configuration ? (
                                        <Link component={RouterLink} to={`/configurations/${monitor.configuration.id}`}>
                                            {monitor.configuration.name}
                                        </Link>
                                    ) : (
                                        'N/A'
                                    )}
                                </TableCell>
                                <TableCell>
                                    <Link component={RouterLink} to={`/monitor/${monitor.id}`}>
                                        {monitor.name}
                                    </Link>
                                </TableCell>
                                <TableCell>{monitor.server?.name ?? 'N/A'}</TableCell>
                                <TableCell sx={{ maxWidth: 360, overflowWrap: 'anywhere' }}>
                                    {monitor.last_error || 'No error message'}
                                </TableCell>
                                <TableCell>{formatDateTime(monitor.last_check)}</TableCell>
                                <TableCell align="right">
                                    {monitor.server ? (
                                        <Tooltip title="View server">
                                            <IconButton
                                                component={RouterLink}
                                                to={`/servers/${monitor.server.id}`}
                                                aria-label={`View server ${monitor.server.name}`}
                                                size="small"
                                            >
                                                <VisibilityIcon fontSize="small" />
                                            </IconButton>
                                        </Tooltip>
                                    ) : null}
                                </TableCell>
                            </TableRow>
                        );
                    })}
                </TableBody>
            </Table>
        </TableContainer>
    );
};
