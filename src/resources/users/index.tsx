import PeopleIcon from '@mui/icons-material/People';
import { Route } from 'react-router-dom';

import { SuperAdminOnly } from '../../ui/SuperAdminOnly';
import { lazyNamed } from '../../lazyNamed';

const UserList = lazyNamed(() => import('./UserList'), 'UserList');
const UserShow = lazyNamed(() => import('./UserShow'), 'UserShow');
const UserCreate = lazyNamed(() => import('./UserCreate'), 'UserCreate');
const UserEdit = lazyNamed(() => import('./UserEdit'), 'UserEdit');

/** /users, /users/{id} (overview), /users/add and /users/{id}/edit (docs/spec.md §2). */
export default {
    list: () => (
        <SuperAdminOnly title="Users">
            <UserList />
        </SuperAdminOnly>
    ),
    icon: PeopleIcon,
    recordRepresentation: 'username',
    children: (
        <>
            <Route
                path="add"
                element={
                    <SuperAdminOnly title="Users">
                        <UserCreate />
                    </SuperAdminOnly>
                }
            />
            <Route
                path=":id"
                element={
                    <SuperAdminOnly title="Users">
                        <UserShow />
                    </SuperAdminOnly>
                }
            />
            <Route
                path=":id/edit"
                element={
                    <SuperAdminOnly title="Users">
                        <UserEdit />
                    </SuperAdminOnly>
                }
            />
        </>
    ),
};
