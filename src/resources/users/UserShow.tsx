import EditIcon from '@mui/icons-material/Edit';
import { Box, Button, Card, CardContent, Chip, Link, Stack, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';

import type { User } from '../../../common/entities';
import { formatDateTime } from '../../ui/format';
import { RecordShow } from '../../ui/RecordShow';

const Flag = ({ label, value }: { label: string; value: boolean }) => (
    <Typography>
        <strong>{label}:</strong> {value ? 'Yes' : 'No'}
    </Typography>
);

/** /users/{id}: username, enabled/admin/super admin flags, company, created and updated times, Edit button. */
export const UserShow = () => (
    <RecordShow<User> resource="users" noun="User" failedText="Failed to fetch!">
        {(user) => <UserOverview user={user} />}
    </RecordShow>
);

const UserOverview = ({ user }: { user: User }) => (
    <Card variant="outlined">
        <Title title={user.username} />
        <CardContent>
            <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 2 }}>
                <Stack direction="row" spacing={1} alignItems="center">
                    <Typography variant="h4" component="h1">
                        {user.username}
                    </Typography>
                    {user.is_super_admin && <Chip size="small" color="secondary" label="Super Admin" />}
                    {user.is_admin && <Chip size="small" color="primary" label="Admin" />}
                </Stack>
                <Button
                    component={RouterLink}
                    to={`/users/${user.id}/edit`}
                    variant="contained"
                    startIcon={<EditIcon />}
                >
                    Edit
                </Button>
            </Box>
            <Stack spacing={1}>
                <Flag label="Enabled" value={user.is_active} />
                <Flag label="Admin" value={user.is_admin} />
                <Flag label="Super Admin" value={user.is_super_admin} />
                <Typography>
                    <strong>Company:</strong>{' '}
                    {user.company ? (
                        <Link component={RouterLink} to={`/companies/${user.company.id}`}>
                            {user.company.name}
                        </Link>
                    ) : (
                        'None'
                    )}
                </Typography>
                <Typography>
                    <strong>Created:</strong> {formatDateTime(user.created_at)}
                </Typography>
                <Typography>
                    <strong>Updated:</strong> {formatDateTime(user.updated_at)}
                </Typography>
            </Stack>
        </CardContent>
    </Card>
);
