import PeopleIcon from '@mui/icons-material/People';
import { Route } from 'react-router-dom';

import { lazyNamed } from '../../lazyNamed';

const UserList = lazyNamed(() => import('./UserList'), 'UserList');
const UserShow = lazyNamed(() => import('./UserShow'), 'UserShow');
const UserCreate = lazyNamed(() => import('./UserCreate'), 'UserCreate');
const UserEdit = lazyNamed(() => import('./UserEdit'), 'UserEdit');

/** /users, /users/{id} (overview), /users/add and /users/{id}/edit (spec §2). */
export default {
    list: UserList,
    icon: PeopleIcon,
    recordRepresentation: 'username',
    children: (
        <>
            <Route path="add" element={<UserCreate />} />
            <Route path=":id" element={<UserShow />} />
            <Route path=":id/edit" element={<UserEdit />} />
        </>
    ),
};
