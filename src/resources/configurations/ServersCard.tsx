import AddIcon from '@mui/icons-material/Add';
import { Button, Card, CardContent, CardHeader, Link } from '@mui/material';
import { DataTable } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';

import type { Monitor, Server } from '../../../common/entities';
import { HealthBadge } from '../monitors/HealthBadge';
import { ServerDialog } from '../servers/ServerDialog';
import { ActiveChip } from '../../ui/ActiveChip';
import { RowActions } from '../../ui/RowActions';
import { useConfirmedDelete } from '../../ui/useConfirmedDelete';
import { useRecordDialog } from '../../ui/useSaveDialog';
import { LocalDataTable } from '../../ui/LocalDataTable';

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
    const dialog = useRecordDialog<Server>();
    const remove = useConfirmedDelete<Server>('servers', {
        noun: 'server',
        nameOf: (s) => s.name,
        deleted: 'Server deleted successfully',
        failed: () => 'Failed to delete server',
        invalidId: 'Invalid server ID',
        onDeleted: onChanged,
    });

    return (
        <Card variant="outlined" sx={{ height: '100%' }}>
            <CardHeader
                title="Servers"
                action={
                    canWrite && (
                        <Button variant="contained" startIcon={<AddIcon />} onClick={dialog.openAdd}>
                            Add Server
                        </Button>
                    )
                }
            />
            <CardContent>
                <LocalDataTable<Server>
                    resource="servers"
                    data={servers}
                    aria-label="Servers"
                    emptyText="No servers configured yet"
                >
                    <DataTable.Col
                        source="name"
                        label="Name"
                        disableSort
                        render={(server: Server) => (
                            <Link component={RouterLink} to={`/servers/${server.id}`} underline="hover">
                                {server.name}
                            </Link>
                        )}
                    />
                    <DataTable.Col
                        source="address"
                        label="Address"
                        disableSort
                        render={(server: Server) => (
                            <Link href={server.address} target="_blank" rel="noopener noreferrer">
                                {server.address}
                            </Link>
                        )}
                    />
                    <DataTable.Col
                        label="Status"
                        render={(server: Server) => <HealthBadge monitors={monitorsOf(server, monitors)} />}
                    />
                    <DataTable.Col
                        source="is_enabled"
                        label="Active"
                        disableSort
                        render={(server: Server) => <ActiveChip active={server.is_enabled} />}
                    />
                    <DataTable.Col
                        label="Actions"
                        align="right"
                        render={(server: Server) => (
                            <RowActions
                                noun="server"
                                name={server.name}
                                viewTo={`/servers/${server.id}`}
                                onEdit={canWrite ? () => dialog.openEdit(server) : undefined}
                                onDelete={canWrite ? () => remove.ask(server) : undefined}
                            />
                        )}
                    />
                </LocalDataTable>
            </CardContent>
            {canWrite && (
                <>
                    <ServerDialog
                        open={dialog.open}
                        configurationId={configurationId}
                        record={dialog.record ?? undefined}
                        onClose={(saved) => {
                            dialog.close();
                            if (saved) onChanged();
                        }}
                    />
                    {remove.confirm}
                </>
            )}
        </Card>
    );
};
