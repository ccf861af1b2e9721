import EditIcon from '@mui/icons-material/Edit';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useGetManyReference } from 'react-admin';

import type { Monitor, Server } from '../../../common/entities';
import { MonitorDialog } from './MonitorDialog';

export interface MonitorEditButtonProps {
    monitor: Monitor;
    /** Called after a successful save. */
    onSaved: () => void;
}

/** Edit: the shared monitor dialog, with the servers of the monitor's configuration to choose from. */
export const MonitorEditButton = ({ monitor, onSaved }: MonitorEditButtonProps) => {
    const [open, setOpen] = useState(false);
    const { data: servers } = useGetManyReference<Server>(
        'servers',
        {
            target: 'configuration_id',
            id: monitor.configuration_id,
            pagination: { page: 1, perPage: 1000 },
            sort: { field: 'name', order: 'ASC' },
        },
        { enabled: open, retry: false }
    );
    // Until the list answers (or if it fails), the monitor's own server stays choosable.
    const choices = servers ?? (monitor.server ? [monitor.server] : []);
    return (
        <>
            <Button variant="contained" startIcon={<EditIcon />} onClick={() => setOpen(true)}>
                Edit
            </Button>
            <MonitorDialog
                open={open}
                onClose={(saved) => {
                    setOpen(false);
                    if (saved) onSaved();
                }}
                configurationId={monitor.configuration_id}
                servers={choices.map((server) => ({ id: server.id, name: server.name }))}
                record={monitor}
            />
        </>
    );
};
