import EditIcon from '@mui/icons-material/Edit';
import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { Title, useGetOne, useNotify } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';

import type { Company } from '../../../common/entities';
import { LoadingScreen } from '../../custom/layout/LoadingScreen';
import { ActiveChip } from '../../ui/ActiveChip';
import { formatDateTime } from '../../ui/format';
import { retryUnlessClientError } from '../../ui/retry';
import { CompanyQuotaDetails } from './CompanyQuota';

/** /companies/{id}: name, status, created and updated times, and an Edit button. */
export const CompanyShow = () => {
    const { id = '' } = useParams();
    const notify = useNotify();
    const { data: company, isPending } = useGetOne<Company>(
        'companies',
        { id: Number(id) },
        {
            retry: retryUnlessClientError,
            onError: () => notify('Failed to fetch company!', { type: 'error' }),
        }
    );

    if (isPending) return <LoadingScreen />;
    if (!company) {
        return (
            <Box sx={{ p: 2 }}>
                <Title title="Company" />
                <Typography variant="h5">Company not found</Typography>
            </Box>
        );
    }
    return (
        <Card variant="outlined">
            <Title title={company.name} />
            <CardContent>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 2 }}>
                    <Stack direction="row" spacing={2} alignItems="center">
                        <Typography variant="h4" component="h1">
                            {company.name}
                        </Typography>
                        <ActiveChip active={company.is_active} />
                    </Stack>
                    <Button
                        component={RouterLink}
                        to={`/companies/${company.id}/edit`}
                        variant="contained"
                        startIcon={<EditIcon />}
                    >
                        Edit
                    </Button>
                </Box>
                <Stack spacing={1}>
                    <Typography>
                        <strong>Status:</strong> {company.is_active ? 'Active' : 'Inactive'}
                    </Typography>
                    <CompanyQuotaDetails company={company} />
                    <Typography>
                        <strong>Allowed networks:</strong>{' '}
                        {company.allowed_networks?.length
                            ? company.allowed_networks.join(', ')
                            : 'None (loopback, private and link-local targets are refused)'}
                    </Typography>
                    <Typography>
                        <strong>Created:</strong> {formatDateTime(company.created_at)}
                    </Typography>
                    <Typography>
                        <strong>Updated:</strong> {formatDateTime(company.updated_at)}
                    </Typography>
                </Stack>
            </CardContent>
        </Card>
    );
};
