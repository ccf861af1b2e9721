import { BooleanInput, TextInput } from 'react-admin';

import type { Server } from '../../../common/entities';
import { useSaveDialog } from '../../ui/useSaveDialog';
import { FormDialog } from '../../ui/FormDialog';

export interface ServerDialogProps {
    open: boolean;
    /** `saved` is true after a successful create or update. */
    onClose: (saved: boolean) => void;
    configurationId: number;
    /** The server to edit; absent to add one. */
    record?: Server;
}

/** POST/PUT /servers body (docs/spec.md §7). */
export const toServerBody = (values: Partial<Server>, configurationId: number) => ({
    name: (values.name ?? '').trim(),
    address: (values.address ?? '').trim(),
    is_enabled: values.is_enabled ?? true,
    configuration_id: configurationId,
});

const TEXTS = {
    added: 'Added server successfully!',
    edited: 'Edited server successfully!',
    addFailed: 'Failed to add server.',
    editFailed: 'Failed to edit server.',
};

/** Add/Edit Server: Name, Address and Is Enabled (default on). Name and address are free text (docs/spec.md §5). */
export function ServerDialog({ open, onClose, configurationId, record }: ServerDialogProps) {
    const { save, editing, error, resetError } = useSaveDialog<Server>('servers', record, TEXTS, () => onClose(true));

    return (
        <FormDialog
            open={open}
            onClose={() => onClose(false)}
            name="server"
            title={editing ? 'Edit Server' : 'Add Server'}
            recordId={record?.id}
            record={record ?? { name: '', address: '', is_enabled: true }}
            onSubmit={(values: Record<string, unknown>) =>
                save(toServerBody(values as Partial<Server>, configurationId))
            }
            resource="servers"
            error={error}
            onExited={resetError}
            saveLabel={editing ? 'Save' : 'Add'}
        >
            <TextInput source="name" label="Name" fullWidth />
            <TextInput source="address" label="Address" placeholder="http://10.0.0.1" fullWidth />
            <BooleanInput source="is_enabled" label="Is Enabled" />
        </FormDialog>
    );
}
