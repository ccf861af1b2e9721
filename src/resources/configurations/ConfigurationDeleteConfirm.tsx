import { useDelete, useNotify } from 'react-admin';

import type { Configuration } from '../../../common/entities';
import { DeleteConfirm } from '../../custom/ui/DeleteConfirm';

export interface ConfigurationDeleteConfirmProps {
    /** The configuration to delete; the confirmation is open while set. */
    configuration: Configuration | null;
    onClose: (deleted: boolean) => void;
}

/** 'Are you sure you want to delete the configuration "NAME"? …', then the delete and its toast. */
export const ConfigurationDeleteConfirm = ({ configuration, onClose }: ConfigurationDeleteConfirmProps) => {
    const notify = useNotify();
    const [deleteOne, { isPending }] = useDelete<Configuration>();
    const confirm = () => {
        if (!configuration) return;
        deleteOne(
            'configurations',
            { id: configuration.id, previousData: configuration },
            {
                mutationMode: 'pessimistic',
                onSuccess: () => {
                    notify('Configuration deleted successfully', { type: 'success' });
                    onClose(true);
                },
                onError: () => {
                    notify('Failed to delete configuration', { type: 'error' });
                    onClose(false);
                },
            }
        );
    };
    return (
        <DeleteConfirm
            noun="configuration"
            name={configuration?.name ?? null}
            loading={isPending}
            onConfirm={confirm}
            onClose={() => onClose(false)}
        />
    );
};
