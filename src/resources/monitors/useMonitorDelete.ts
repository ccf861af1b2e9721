import type { Monitor } from '../../../common/entities';
import { useConfirmedDelete } from '../../ui/useConfirmedDelete';

/** Confirms, deletes and toasts 'Monitor deleted successfully' or 'Failed to delete monitor'. */
export const useMonitorDelete = (onDeleted: (monitor: Monitor) => void) =>
    useConfirmedDelete<Monitor>('monitors', {
        noun: 'monitor',
        nameOf: (m) => m.name,
        deleted: 'Monitor deleted successfully',
        failed: () => 'Failed to delete monitor',
        onDeleted,
    });
