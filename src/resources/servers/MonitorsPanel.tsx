import AddIcon from '@mui/icons-material/Add';
import { Button, Card, CardContent, CardHeader } from '@mui/material';

import type { Monitor } from '../../../common/entities';
import { MonitorDialog } from '../monitors/MonitorDialog';
import { MonitorTable } from '../monitors/MonitorTable';
import { useMonitorDelete } from '../monitors/useMonitorDelete';
import { useRecordDialog } from '../../ui/useSaveDialog';

export interface MonitorsPanelProps {
    serverId: number;
    configurationId: number;
    monitors: Monitor[];
    /** The configuration's servers, for the monitor dialog's server select. */
    servers: { id: number; name: string }[];
    canWrite: boolean;
    /** After a monitor was added, edited or deleted. */
    onChanged: () => void;
}

/** The server's monitors with Add Monitor (this server preselected), edit and delete. */
export const MonitorsPanel = ({
    serverId,
    configurationId,
    monitors,
    servers,
    canWrite,
    onChanged,
}: MonitorsPanelProps) => {
    const dialog = useRecordDialog<Monitor>();
    const remove = useMonitorDelete(onChanged);

    return (
        <Card variant="outlined" id="server-monitors">
            <CardHeader
                title="Monitors"
                action={
                    canWrite && (
                        <Button variant="contained" startIcon={<AddIcon />} onClick={dialog.openAdd}>
                            Add Monitor
                        </Button>
                    )
                }
            />
            <CardContent sx={{ pt: 0, overflowX: 'auto' }}>
                <MonitorTable
                    monitors={monitors}
                    servers={servers}
                    onEdit={canWrite ? dialog.openEdit : undefined}
                    onDelete={canWrite ? remove.ask : undefined}
                />
            </CardContent>
            {canWrite && (
                <>
                    <MonitorDialog
                        open={dialog.open}
                        configurationId={configurationId}
                        servers={servers}
                        defaultServerId={serverId}
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
