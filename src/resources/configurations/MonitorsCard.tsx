import AddIcon from '@mui/icons-material/Add';
import { Box, Button, Card, CardContent, CardHeader } from '@mui/material';
import { useState } from 'react';

import type { Monitor, Server } from '../../../common/entities';
import { HealthBadge } from '../monitors/HealthBadge';
import { MonitorDialog } from '../monitors/MonitorDialog';
import { filterByHealth, type HealthFilter, MonitorHealthSelect } from '../monitors/MonitorHealthSelect';
import { MonitorTable } from '../monitors/MonitorTable';
import { useMonitorDelete } from '../monitors/useMonitorDelete';
import { useRecordDialog } from '../../ui/useSaveDialog';

export interface MonitorsCardProps {
    configurationId: number;
    monitors: Monitor[];
    servers: Pick<Server, 'id' | 'name'>[];
    canWrite: boolean;
    /** After a monitor was added, edited or deleted. */
    onChanged: () => void;
}

/** The configuration's monitors with their group badge and a status filter (docs/spec.md §4). */
export const MonitorsCard = ({ configurationId, monitors, servers, canWrite, onChanged }: MonitorsCardProps) => {
    const [status, setStatus] = useState<HealthFilter>('');
    const dialog = useRecordDialog<Monitor>();
    const remove = useMonitorDelete(onChanged);
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
                            <Button variant="contained" startIcon={<AddIcon />} onClick={dialog.openAdd}>
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
                    onEdit={canWrite ? dialog.openEdit : undefined}
                    onDelete={canWrite ? remove.ask : undefined}
                    emptyText={monitors.length === 0 ? undefined : 'No monitors with this status'}
                />
            </CardContent>
            {canWrite && (
                <>
                    <MonitorDialog
                        open={dialog.open}
                        configurationId={configurationId}
                        servers={serverChoices}
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
