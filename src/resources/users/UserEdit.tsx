import { Edit, SimpleForm, useNotify } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';

import type { User } from '../../../common/entities';
import { FormToolbar } from '../../ui/FormToolbar';
import { retryUnlessClientError } from '../../ui/retry';
import { pageFormError } from './pageFormError';
import { toUserBody, toUserFormValues, UserInputs } from './UserInputs';

/** /users/{id}/edit: the same form as /users/add, without the password. */
export const UserEdit = () => {
    const { id = '' } = useParams();
    const notify = useNotify();
    const navigate = useNavigate();
    return (
        <Edit<User>
            resource="users"
            id={Number(id)}
            title="Edit User"
            actions={false}
            redirect={false}
            mutationMode="pessimistic"
            transform={(data) => toUserBody(data) as unknown as User}
            queryOptions={{
                retry: retryUnlessClientError,
                select: (user) => toUserFormValues(user),
                onError: (error) => {
                    notify(pageFormError(error), { type: 'error' });
                    navigate('/users');
                },
            }}
            mutationOptions={{
                onSuccess: () => {
                    notify('User updated successfully', { type: 'success' });
                    navigate(`/users/${id}`);
                },
                onError: (error) => notify(pageFormError(error), { type: 'error' }),
            }}
        >
            <SimpleForm disableInvalidFormNotification toolbar={<FormToolbar />}>
                <UserInputs creating={false} />
            </SimpleForm>
        </Edit>
    );
};
