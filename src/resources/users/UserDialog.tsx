import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { Form, SaveButton, useCreate, useNotify, useUpdate } from 'react-admin';

import type { User } from '../../../common/entities';
import { DIALOG_PASSWORD_REQUIRED, toUserBody, toUserFormValues, UserInputs, userDefaults } from './UserInputs';
import { withServerMessage } from '../../custom/ui/format';

export interface UserDialogProps {
    open: boolean;
    /** The user to edit; absent to add one. */
    user?: User | null;
    onClose: () => void;
    onSaved?: (user: User) => void;
}

/** Add/Edit User dialog of the list. */
export const UserDialog = ({ open, user, onClose, onSaved }: UserDialogProps) => {
    const notify = useNotify();
    const [create] = useCreate<User>();
    const [update] = useUpdate<User>();
    const editing = !!user;

    const submit = async (values: Record<string, unknown>) => {
        const data = toUserBody(values);
        try {
            const saved = editing
                ? await update(
                      'users',
                      { id: user.id, data, previousData: user },
                      { mutationMode: 'pessimistic', returnPromise: true }
                  )
                : await create('users', { data }, { returnPromise: true });
            notify(editing ? 'User updated successfully' : 'User created successfully', { type: 'success' });
            onSaved?.(saved as User);
            onClose();
        } catch (error) {
            notify(withServerMessage(editing ? 'Failed to update user' : 'Failed to create user', error), {
                type: 'error',
            });
            return (error as { body?: { errors?: Record<string, string> } }).body?.errors;
        }
    };

    return (
        <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="user-dialog-title">
            <Form
                disableInvalidFormNotification
                key={user?.id ?? 'new'}
                record={user ? toUserFormValues(user) : userDefaults}
                onSubmit={submit}
                resource="users"
            >
                <DialogTitle id="user-dialog-title">{editing ? 'Edit User' : 'Add User'}</DialogTitle>
                <DialogContent>
                    <UserInputs creating={!editing} passwordRequiredMessage={DIALOG_PASSWORD_REQUIRED} />
                </DialogContent>
                <DialogActions>
                    <Button onClick={onClose}>Cancel</Button>
                    <SaveButton label={editing ? 'Save' : 'Add'} alwaysEnable />
                </DialogActions>
            </Form>
        </Dialog>
    );
};
