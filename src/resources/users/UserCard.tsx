import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { Box, Card, CardActions, CardContent, Chip, IconButton, Link, Stack, Tooltip, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';

import type { User } from '../../../common/entities';
import { ActiveChip } from '../../ui/ActiveChip';

export interface UserCardProps {
    user: User;
    onEdit: (user: User) => void;
    onDelete: (user: User) => void;
}

/** One user in the grid: username, Super Admin/Admin chips, company link or None, status, edit and delete. */
export const UserCard = ({ user, onEdit, onDelete }: UserCardProps) => (
    <Card variant="outlined" sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
        <CardContent sx={{ flex: 1 }}>
            <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1, mb: 1 }}>
                <Link component={RouterLink} to={`/users/${user.id}`} variant="h6" underline="hover">
                    {user.username}
                </Link>
                <ActiveChip active={user.is_active} />
            </Box>
            <Stack direction="row" spacing={1} sx={{ mb: 1, minHeight: 24 }}>
                {user.is_super_admin && <Chip size="small" color="secondary" label="Super Admin" />}
                {user.is_admin && <Chip size="small" color="primary" label="Admin" />}
            </Stack>
            <Typography variant="body2" color="text.secondary">
                Company:{' '}
                {user.company ? (
                    <Link component={RouterLink} to={`/companies/${user.company.id}`}>
                        {user.company.name}
                    </Link>
                ) : (
                    'None'
                )}
            </Typography>
        </CardContent>
        <CardActions sx={{ justifyContent: 'flex-end' }}>
            <Tooltip title="Edit">
                <IconButton aria-label={`Edit user ${user.username}`} onClick={() => onEdit(user)}>
                    <EditIcon />
                </IconButton>
            </Tooltip>
            <Tooltip title="Delete">
                <IconButton aria-label={`Delete user ${user.username}`} color="error" onClick={() => onDelete(user)}>
                    <DeleteIcon />
                </IconButton>
            </Tooltip>
        </CardActions>
    </Card>
);
