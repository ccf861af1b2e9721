import NotificationsOffIcon from '@mui/icons-material/NotificationsOff';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useGetIdentity } from 'react-admin';

import type { User } from '../../../common/entities';
import { canAccess } from '../../providers/canAccess';
import { SilenceDialog, type SilenceTarget } from './SilenceDialog';

/** The "Silence" action of the monitor, server and configuration pages; hidden from read-only users. */
export const SilenceButton = ({
    target,
    name,
    onSilenced,
}: {
    target: SilenceTarget;
    name: string;
    onSilenced?: () => void;
}) => {
    const { identity } = useGetIdentity();
    const [open, setOpen] = useState(false);
    if (!canAccess(identity as unknown as User | undefined, { resource: 'silences', action: 'create' })) return null;
    return (
        <>
            <Button variant="outlined" startIcon={<NotificationsOffIcon />} onClick={() => setOpen(true)}>
                Silence
            </Button>
            <SilenceDialog
                open={open}
                target={target}
                name={name}
                onClose={() => setOpen(false)}
                onSilenced={onSilenced}
            />
        </>
    );
};
