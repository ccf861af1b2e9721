import { Chip } from '@mui/material';

/** Active/Inactive marker of a company, user, channel or configuration. */
export const ActiveChip = ({ active }: { active: boolean }) => (
    <Chip
        size="small"
        label={active ? 'Active' : 'Inactive'}
        color={active ? 'success' : 'default'}
        variant={active ? 'filled' : 'outlined'}
    />
);
