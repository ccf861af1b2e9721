import { Create, SimpleForm, useNotify } from 'react-admin';
import { useNavigate } from 'react-router-dom';

import type { User } from '../../../common/entities';
import { FormToolbar } from '../../ui/FormToolbar';
import { pageFormError } from './pageFormError';
import { toUserBody, UserInputs, userDefaults } from './UserInputs';

/** /users/add: the page form. */
export const UserCreate = () => {
    const notify = useNotify();
    const navigate = useNavigate();
    return (
        <Create<User>
            resource="users"
            title="Add User"
            redirect={false}
            transform={(data) => toUserBody(data) as unknown as User}
            mutationOptions={{
                onSuccess: (user) => {
                    notify('User created successfully', { type: 'success' });
                    navigate(`/users/${user.id}`);
                },
                onError: (error) => notify(pageFormError(error), { type: 'error' }),
            }}
        >
            <SimpleForm disableInvalidFormNotification defaultValues={userDefaults} toolbar={<FormToolbar />}>
                <UserInputs creating />
            </SimpleForm>
        </Create>
    );
};
