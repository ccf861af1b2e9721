import type { User } from '../../../common/entities';
import { CardGridList } from '../../ui/CardGridList';
import { UserCard } from './UserCard';
import { UserDialog } from './UserDialog';

/** /users: card grid with the Add/Edit User dialog. */
export const UserList = () => (
    <CardGridList<User>
        resource="users"
        sortField="username"
        texts={{
            title: 'Users',
            noun: 'user',
            add: 'Add User',
            empty: 'No users found',
            fetchFailed: 'Failed to fetch users:',
            deleted: 'User deleted successfully!',
            deleteFailed: 'Failed to delete user:',
        }}
        nameOf={(user) => user.username}
        renderCard={(user, actions) => <UserCard user={user} {...actions} />}
        renderDialog={({ record, ...state }) => <UserDialog user={record} {...state} />}
    />
);
