import type { User } from '../../../common/entities';
import { DIALOG_PASSWORD_REQUIRED, toUserBody, toUserFormValues, UserInputs, userDefaults } from './UserInputs';
import { useSaveDialog } from '../../ui/useSaveDialog';
import { FormDialog } from '../../ui/FormDialog';

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
        <FormDialog
            open={open}
            onClose={onClose}
            name="user"
            title={editing ? 'Edit User' : 'Add User'}
            recordId={user?.id}
            record={user ? toUserFormValues(user) : userDefaults}
            onSubmit={submit}
            resource="users"
            error={error}
            onExited={resetError}
            saveLabel={editing ? 'Save' : 'Add'}
        >
            <UserInputs creating={!editing} passwordRequiredMessage={DIALOG_PASSWORD_REQUIRED} />
        </FormDialog>
    );
};
