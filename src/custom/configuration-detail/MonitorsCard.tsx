import AddIcon from '@mui/icons-material/Add';
import { Box, Button, Card, CardContent, CardHeader } from '@mui/material';
import { useState } from 'react';

import type { Monitor, Server } from '../../../common/entities';
import { HealthBadge } from '../../resources/monitors/HealthBadge';
import { MonitorDeleteConfirm } from '../../resources/monitors/MonitorDeleteConfirm';
import { MonitorDialog } from '../../resources/monitors/MonitorDialog';
import { filterByHealth, type HealthFilter, MonitorHealthSelect } from '../../resources/monitors/MonitorHealthSelect';
import { MonitorTable } from '../../resources/monitors/MonitorTable';

export interface MonitorsCardProps {
    configurationId: number;
    monitors: Monitor[];
    servers: Pick<Server, 'id' | 'name'>[];
    canWrite: boolean;
    /** After a monitor was added, edited or deleted. */
    onChanged: () => void;
}

/** The configuration's monitors with their group badge and a status filter (spec §4). */
export const MonitorsCard = ({ configurationId, monitors, servers, canWrite, onChanged }: MonitorsCardProps) => {
    const [status, setStatus] = useState<HealthFilter>('');
    const [dialog, setDialog] = useState<{ open: boolean; monitor?: Monitor }>({ open: false });
    const [toDelete, setToDelete] = useState<Monitor | null>(null);
    const serverChoices = servers.map(({ id, name }) => ({ id, name }));

    return (
        <Card variant="outlined">
            <CardHeader
                title={
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                        Monitors
                        {monitors.length > 0 && <HealthBadge monitors={monitors} />}
                    </Box>
                }
                action={
                    <Box sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
                        <MonitorHealthSelect value={status} onChange={setStatus} />
                        {canWrite && (
                            <Button
                                variant="contained"
                                startIcon={<AddIcon />}
                                onClick={() => setDialog({ open: true })}
                            >
                                Add Monitor
                            </Button>
                        )}
                    </Box>
                }
            />
            <CardContent>
                <MonitorTable
                    monitors={filterByHealth(monitors, status)}
                    servers={serverChoices}
                    onEdit={canWrite ? (monitor) => setDialog({ open: true, monitor }) : undefined}
                    onDelete={canWrite ? setToDelete : undefined}
                    emptyText={monitors.length === 0 ? undefined : 'No monitors with this status'}
                />
            </CardContent>
            {canWrite && (
                <>
                    <MonitorDialog
                        open={dialog.open}
                        configurationId={configurationId}
                        servers={serverChoices}
                        record={dialog.monitor}
                        onClose={(saved) => {
                            setDialog({ open: false });
                            if (saved) onChanged();
                        }}
                    />
                    <MonitorDeleteConfirm
                        monitor={toDelete}
                        onClose={(deleted) => {
                            setToDelete(null);
                            if (deleted) onChanged();
                        }}
                    />
                </>
            )}
        </Card>
    );
};
