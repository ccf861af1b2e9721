import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { BooleanInput, Form, SaveButton, TextInput, useCreate, useNotify, useUpdate } from 'react-admin';

import type { Server } from '../../../common/entities';
import { withServerMessage } from '../../custom/ui/format';

export interface ServerDialogProps {
    open: boolean;
    /** `saved` is true after a successful create or update. */
    onClose: (saved: boolean) => void;
    configurationId: number;
    /** The server to edit; absent to add one. */
    record?: Server;
}

/** POST/PUT /servers body (spec §7). */
export const toServerBody = (values: Partial<Server>, configurationId: number) => ({
    name: (values.name ?? '').trim(),
    address: (values.address ?? '').trim(),
    is_enabled: values.is_enabled ?? true,
    configuration_id: configurationId,
});

/** Add/Edit Server: Name, Address and Is Enabled (default on). Name and address are free text (spec §5). */
export function ServerDialog({ open, onClose, configurationId, record }: ServerDialogProps) {
    const notify = useNotify();
    const [create] = useCreate<Server>();
    const [update] = useUpdate<Server>();
    const editing = !!record;

    const submit = async (values: Record<string, unknown>) => {
        const data = toServerBody(values as Partial<Server>, configurationId);
        try {
            if (record) {
                await update(
                    'servers',
                    { id: record.id, data, previousData: record },
                    { mutationMode: 'pessimistic', returnPromise: true }
                );
            } else {
                await create('servers', { data }, { returnPromise: true });
            }
            notify(editing ? 'Edited server successfully!' : 'Added server successfully!', { type: 'success' });
            onClose(true);
        } catch (error) {
            notify(withServerMessage(editing ? 'Failed to edit server.' : 'Failed to add server.', error), {
                type: 'error',
            });
            return (error as { body?: { errors?: Record<string, string> } }).body?.errors;
        }
    };

    return (
        <Dialog
            open={open}
            onClose={() => onClose(false)}
            fullWidth
            maxWidth="sm"
            aria-labelledby="server-dialog-title"
        >
            <Form
                disableInvalidFormNotification
                key={record?.id ?? 'new'}
                record={record ?? { name: '', address: '', is_enabled: true }}
                onSubmit={submit}
                resource="servers"
            >
                <DialogTitle id="server-dialog-title">{editing ? 'Edit Server' : 'Add Server'}</DialogTitle>
                <DialogContent>
                    <TextInput source="name" label="Name" fullWidth />
                    <TextInput source="address" label="Address" placeholder="http://10.0.0.1" fullWidth />
                    <BooleanInput source="is_enabled" label="Is Enabled" />
                </DialogContent>
                <DialogActions>
                    <Button onClick={() => onClose(false)}>Cancel</Button>
                    <SaveButton label={editing ? 'Save' : 'Add'} alwaysEnable />
                </DialogActions>
            </Form>
        </Dialog>
    );
}
