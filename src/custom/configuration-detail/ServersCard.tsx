import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import VisibilityIcon from '@mui/icons-material/Visibility';
import {
    Button,
    Card,
    CardContent,
    CardHeader,
    IconButton,
    Link,
    Table,
    TableBody,
    TableCell,
    TableHead,
    TableRow,
    Tooltip,
    Typography,
} from '@mui/material';
import { useState } from 'react';
import { useDelete, useNotify } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';

import type { Monitor, Server } from '../../../common/entities';
import { HealthBadge } from '../../resources/monitors/HealthBadge';
import { ServerDialog } from '../../resources/servers/ServerDialog';
import { ActiveChip } from '../ui/ActiveChip';
import { DeleteConfirm } from '../ui/DeleteConfirm';

export interface ServersCardProps {
    configurationId: number;
    servers: Server[];
    /** The configuration's monitors, for servers listed without their own. */
    monitors: Monitor[];
    canWrite: boolean;
    /** After a server was added, edited or deleted. */
    onChanged: () => void;
}

const monitorsOf = (server: Server, monitors: Monitor[]) =>
    server.monitors ?? monitors.filter((m) => (m.server_id ?? m.server?.id) === server.id);

/** The configuration's servers: Name, Address, Status, Active and Actions (view, edit, delete). */
export const ServersCard = ({ configurationId, servers, monitors, canWrite, onChanged }: ServersCardProps) => {
    const notify = useNotify();
    const [dialog, setDialog] = useState<{ open: boolean; server?: Server }>({ open: false });
    const [toDelete, setToDelete] = useState<Server | null>(null);
    const [deleteOne, { isPending: deleting }] = useDelete<Server>();

    const confirmDelete = () => {
        const server = toDelete;
        setToDelete(null);
        if (!server?.id) {
            notify('Invalid server ID', { type: 'error' });
            return;
        }
        deleteOne(
            'servers',
            { id: server.id, previousData: server },
            {
                mutationMode: 'pessimistic',
                onSuccess: () => {
                    notify('Server deleted successfully', { type: 'success' });
                    onChanged();
                },
                onError: () => notify('Failed to delete server', { type: 'error' }),
            }
        );
    };

    return (
        <Card variant="outlined" sx={{ height: '100%' }}>
            <CardHeader
                title="Servers"
                action={
                    canWrite && (
                        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ open: true })}>
                            Add Server
                        </Button>
                    )
                }
            />
            <CardContent>
                {servers.length === 0 ? (
                    <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
                        No servers configured yet
                    </Typography>
                ) : (
                    <Table size="small" aria-label="Servers">
                        <TableHead>
                            <TableRow>
                                <TableCell>Name</TableCell>
                                <TableCell>Address</TableCell>
                                <TableCell>Status</TableCell>
                                <TableCell>Active</TableCell>
                                <TableCell align="right">Actions</TableCell>
                            </TableRow>
                        </TableHead>
                        <TableBody>
                            {servers.map((server) => (
                                <TableRow key={server.id}>
                                    <TableCell>
                                        <Link component={RouterLink} to={`/servers/${server.id}`} underline="hover">
                                            {server.name}
                                        </Link>
                                    </TableCell>
                                    <TableCell>
                                        <Link href={server.address} target="_blank" rel="noopener noreferrer">
                                            {server.address}
                                        </Link>
                                    </TableCell>
                                    <TableCell>
                                        <HealthBadge monitors={monitorsOf(server, monitors)} />
                                    </TableCell>
                                    <TableCell>
                                        <ActiveChip active={server.is_enabled} />
                                    </TableCell>
                                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                                        <Tooltip title="View">
                                            <IconButton
                                                size="small"
                                                component={RouterLink}
                                                to={`/servers/${server.id}`}
                                                aria-label={`View server ${server.name}`}
                                            >
                                                <VisibilityIcon fontSize="small" />
                                            </IconButton>
                                        </Tooltip>
                                        {canWrite && (
                                            <>
                                                <Tooltip title="Edit">
                                                    <IconButton
                                                        size="small"
                                                        aria-label={`Edit server ${server.name}`}
                                                        onClick={() => setDialog({ open: true, server })}
                                                    >
                                                        <EditIcon fontSize="small" />
                                                    </IconButton>
                                                </Tooltip>
                                                <Tooltip title="Delete">
                                                    <IconButton
                                                        size="small"
                                                        color="error"
                                                        aria-label={`Delete server ${server.name}`}
                                                        onClick={() => setToDelete(server)}
                                                    >
                                                        <DeleteIcon fontSize="small" />
                                                    </IconButton>
                                                </Tooltip>
                                            </>
                                        )}
                                    </TableCell>
                                </TableRow>
                            ))}
                        </TableBody>
                    </Table>
                )}
            </CardContent>
            {canWrite && (
                <>
                    <ServerDialog
                        open={dialog.open}
                        configurationId={configurationId}
                        record={dialog.server}
                        onClose={(saved) => {
                            setDialog({ open: false });
                            if (saved) onChanged();
                        }}
                    />
                    <DeleteConfirm
                        noun="server"
                        name={toDelete?.name ?? null}
                        loading={deleting}
                        onConfirm={confirmDelete}
                        onClose={() => setToDelete(null)}
                    />
                </>
            )}
        </Card>
    );
};
