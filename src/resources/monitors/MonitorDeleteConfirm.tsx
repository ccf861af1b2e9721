import { useDelete, useNotify } from 'react-admin';

import type { Monitor } from '../../../common/entities';
import { DeleteConfirm } from '../../custom/ui/DeleteConfirm';

export interface MonitorDeleteConfirmProps {
    /** The monitor to delete; the confirmation is open while set. */
    monitor: Monitor | null;
    onClose: (deleted: boolean) => void;
}

/** Confirms, deletes and toasts 'Monitor deleted successfully' or 'Failed to delete monitor'. */
export const MonitorDeleteConfirm = ({ monitor, onClose }: MonitorDeleteConfirmProps) => {
    const notify = useNotify();
    const [deleteOne, { isPending }] = useDelete<Monitor>();
    const confirm = () => {
        if (!monitor) return;
        deleteOne(
            'monitors',
            { id: monitor.id, previousData: monitor },
            {
                mutationMode: 'pessimistic',
                onSuccess: () => {
                    notify('Monitor deleted successfully', { type: 'success' });
                    onClose(true);
                },
                onError: () => {
                    notify('Failed to delete monitor', { type: 'error' });
                    onClose(false);
                },
            }
        );
    };
    return (
        <DeleteConfirm
            noun="monitor"
            name={monitor?.name ?? null}
            loading={isPending}
            onConfirm={confirm}
            onClose={() => onClose(false)}
        />
    );
};
