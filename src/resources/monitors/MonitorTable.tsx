import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { IconButton, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from '@mui/material';

import type { Monitor } from '../../../common/entities';
import { MONITOR_TYPE_LABELS } from '../../../common/monitor-types';
import { Uptime30d } from '../../custom/history/Uptime30d';
import { ActiveChip } from '../../custom/ui/ActiveChip';
import { formatDateTime } from '../../custom/ui/format';
import { SilencedChip } from '../../custom/silences/SilencedChip';
import { MonitorHealthChip } from './HealthBadge';

export interface MonitorTableProps {
    monitors: Monitor[];
    /** Names of servers the rows may point at, for monitors that carry only `server_id`. */
    servers?: { id: number; name: string }[];
    /** Without onEdit and onDelete (read-only users) there is no Actions column. */
    onEdit?: (monitor: Monitor) => void;
    onDelete?: (monitor: Monitor) => void;
    emptyText?: string;
}

const serverName = (monitor: Monitor, servers: { id: number; name: string }[]) =>
    monitor.server?.name ?? servers.find((s) => s.id === monitor.server_id)?.name ?? 'None';

/** Name (with its 30-day uptime), Type, Server, Status (Healthy/Warning/Error), Active, Last Check ('Never') and Actions. */
export const MonitorTable = ({
    monitors,
    servers = [],
    onEdit,
    onDelete,
    emptyText = 'No monitors configured yet',
}: MonitorTableProps) => {
    const withActions = Boolean(onEdit || onDelete);
    if (monitors.length === 0) {
        return (
            <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
                {emptyText}
            </Typography>
        );
    }
    return (
        <Table size="small" aria-label="Monitors">
            <TableHead>
                <TableRow>
                    <TableCell>Name</TableCell>
                    <TableCell>Type</TableCell>
                    <TableCell>Server</TableCell>
                    <TableCell>Status</TableCell>
                    <TableCell>Active</TableCell>
                    <TableCell>Last Check</TableCell>
                    {withActions && <TableCell align="right">Actions</TableCell>}
                </TableRow>
            </TableHead>
            <TableBody>
                {monitors.map((monitor) => (
                    <TableRow key={monitor.id}>
                        <TableCell>
                            <span>{monitor.name}</span>
                            <Uptime30d record={monitor} />
                        </TableCell>
                        <TableCell>{MONITOR_TYPE_LABELS[monitor.type] ?? monitor.type}</TableCell>
                        <TableCell>{serverName(monitor, servers)}</TableCell>
                        <TableCell>
                            <MonitorHealthChip monitor={monitor} /> <SilencedChip monitor={monitor} />
                        </TableCell>
                        <TableCell>
                            <ActiveChip active={monitor.is_enabled} />
                        </TableCell>
                        <TableCell>{monitor.last_check ? formatDateTime(monitor.last_check) : 'Never'}</TableCell>
                        {withActions && (
                            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                                {onEdit && (
                                    <Tooltip title="Edit">
                                        <IconButton
                                            size="small"
                                            aria-label={`Edit monitor ${monitor.name}`}
                                            onClick={() => onEdit(monitor)}
                                        >
                                            <EditIcon fontSize="small" />
                                        </IconButton>
                                    </Tooltip>
                                )}
                                {onDelete && (
                                    <Tooltip title="Delete">
                                        <IconButton
                                            size="small"
                                            color="error"
                                            aria-label={`Delete monitor ${monitor.name}`}
                                            onClick={() => onDelete(monitor)}
                                        >
                                            <DeleteIcon fontSize="small" />
                                        </IconButton>
                                    </Tooltip>
                                )}
                            </TableCell>
                        )}
                    </TableRow>
                ))}
            </TableBody>
        </Table>
    );
};
