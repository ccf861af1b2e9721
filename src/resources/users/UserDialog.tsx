import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { Form, SaveButton } from 'react-admin';

import type { User } from '../../../common/entities';
import { DIALOG_PASSWORD_REQUIRED, toUserBody, toUserFormValues, UserInputs, userDefaults } from './UserInputs';
import { useSaveDialog } from '../../ui/useSaveDialog';
import { DialogError } from '../../ui/DialogError';

export interface UserDialogProps {
    open: boolean;
    /** The user to edit; absent to add one. */
    user?: User | null;
    onClose: () => void;
    onSaved?: (user: User) => void;
}

const TEXTS = {
    added: 'User created successfully',
    edited: 'User updated successfully',
    addFailed: 'Failed to create user',
    editFailed: 'Failed to update user',
};

/** Add/Edit User dialog of the list. */
export const UserDialog = ({ open, user, onClose, onSaved }: UserDialogProps) => {
    const { save, editing, error, resetError } = useSaveDialog<User>('users', user, TEXTS, (saved) => {
        onSaved?.(saved);
        onClose();
    });
    const submit = (values: Record<string, unknown>) => save(toUserBody(values) as Partial<User>);

    return (
        <Dialog
            slotProps={{ transition: { onExited: resetError } }}
            open={open}
            onClose={onClose}
            fullWidth
            maxWidth="sm"
            aria-labelledby="user-dialog-title"
        >
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
                <DialogError message={error} />
                <DialogActions>
                    <Button onClick={onClose}>Cancel</Button>
                    <SaveButton label={editing ? 'Save' : 'Add'} alwaysEnable />
                </DialogActions>
            </Form>
        </Dialog>
    );
};
