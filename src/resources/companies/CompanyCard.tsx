import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { Box, Card, CardActions, CardContent, IconButton, Link, Tooltip, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';

import type { Company } from '../../../common/entities';
import { ActiveChip } from '../../ui/ActiveChip';
import { formatDate } from '../../ui/format';

export interface CompanyCardProps {
    company: Company;
    onEdit: (company: Company) => void;
    onDelete: (company: Company) => void;
}

/** One company in the grid: name, Active/Inactive, created date, edit and delete. */
export const CompanyCard = ({ company, onEdit, onDelete }: CompanyCardProps) => (
    <Card variant="outlined" sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
        <CardContent sx={{ flex: 1 }}>
            <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1, mb: 1 }}>
                <Link component={RouterLink} to={`/companies/${company.id}`} variant="h6" underline="hover">
                    {company.name}
                </Link>
                <ActiveChip active={company.is_active} />
            </Box>
            <Typography variant="body2" color="text.secondary">
                Created: {formatDate(company.created_at)}
            </Typography>
        </CardContent>
        <CardActions sx={{ justifyContent: 'flex-end' }}>
            <Tooltip title="Edit">
                <IconButton aria-label={`Edit company ${company.name}`} onClick={() => onEdit(company)}>
                    <EditIcon />
                </IconButton>
            </Tooltip>
            <Tooltip title="Delete">
                <IconButton
                    aria-label={`Delete company ${company.name}`}
                    color="error"
                    onClick={() => onDelete(company)}
                >
                    <DeleteIcon />
                </IconButton>
            </Tooltip>
        </CardActions>
    </Card>
);
