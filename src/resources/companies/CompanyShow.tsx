import EditIcon from '@mui/icons-material/Edit';
import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';

import type { Company } from '../../../common/entities';
import { ActiveChip } from '../../ui/ActiveChip';
import { formatDateTime } from '../../ui/format';
import { RecordShow } from '../../ui/RecordShow';
import { CompanyQuotaDetails } from './CompanyQuota';

/** /companies/{id}: name, status, created and updated times, and an Edit button; 'Company not found' without one. */
export const CompanyShow = () => (
    <RecordShow<Company> resource="companies" noun="Company" failedText="Failed to fetch company!">
        {(company) => <CompanyOverview company={company} />}
    </RecordShow>
);

const CompanyOverview = ({ company }: { company: Company }) => (
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
