import AddIcon from '@mui/icons-material/Add';
import { Button, Card, CardContent, CardHeader } from '@mui/material';
import { useState } from 'react';

import type { Monitor } from '../../../common/entities';
import { MonitorDeleteConfirm } from '../../resources/monitors/MonitorDeleteConfirm';
import { MonitorDialog } from '../../resources/monitors/MonitorDialog';
import { MonitorTable } from '../../resources/monitors/MonitorTable';

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
    const [dialog, setDialog] = useState<{ open: boolean; monitor?: Monitor }>({ open: false });
    const [toDelete, setToDelete] = useState<Monitor | null>(null);

    return (
        <Card variant="outlined" id="server-monitors">
            <CardHeader
                title="Monitors"
                action={
                    canWrite && (
                        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ open: true })}>
                            Add Monitor
                        </Button>
                    )
                }
            />
            <CardContent sx={{ pt: 0, overflowX: 'auto' }}>
                <MonitorTable
                    monitors={monitors}
                    servers={servers}
                    onEdit={canWrite ? (monitor) => setDialog({ open: true, monitor }) : undefined}
                    onDelete={canWrite ? setToDelete : undefined}
                />
            </CardContent>
            {canWrite && (
                <>
                    <MonitorDialog
                        open={dialog.open}
                        configurationId={configurationId}
                        servers={servers}
                        defaultServerId={serverId}
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
