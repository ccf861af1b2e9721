import type { Configuration } from '../../../common/entities';
import { useConfirmedDelete } from '../../ui/useConfirmedDelete';

/**
 * 'Are you sure you want to delete the configuration "NAME"? …', then the delete and 'Configuration deleted
 * successfully' or 'Failed to delete configuration'.
 */
export const useConfigurationDelete = (onDeleted: (configuration: Configuration) => void) =>
    useConfirmedDelete<Configuration>('configurations', {
        noun: 'configuration',
        nameOf: (c) => c.name,
        deleted: 'Configuration deleted successfully',
        failed: () => 'Failed to delete configuration',
        onDeleted,
    });
