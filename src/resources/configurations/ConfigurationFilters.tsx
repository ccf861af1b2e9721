import SearchIcon from '@mui/icons-material/Search';
import { Box, InputAdornment, MenuItem, TextField } from '@mui/material';
import { useGetList } from 'react-admin';

import type { Company } from '../../../common/entities';
import { retryUnlessClientError } from '../../ui/retry';
import { MonitorHealthSelect } from '../monitors/MonitorHealthSelect';
import type { ConfigurationFilterValues } from './configurationFilters';

export interface ConfigurationFiltersProps {
    value: ConfigurationFilterValues;
    onChange: (value: ConfigurationFilterValues) => void;
    /** Only super admins see several companies, so only they get the Company select. */
    showCompany: boolean;
}

/** Search, Company, Status and Enabled filters of the configuration list. */
export const ConfigurationFilters = ({ value, onChange, showCompany }: ConfigurationFiltersProps) => {
    const set = (patch: Partial<ConfigurationFilterValues>) => onChange({ ...value, ...patch });
    return (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 3 }}>
            <TextField
                size="small"
                label="Search"
                placeholder="Search by name or chain"
                value={value.q}
                onChange={(event) => set({ q: event.target.value })}
                sx={{ minWidth: 240, flex: 1 }}
                slotProps={{
                    // The server refuses a longer search (server/list-query.ts textFilter).
                    htmlInput: { maxLength: 200 },
                    input: {
                        startAdornment: (
                            <InputAdornment position="start">
                                <SearchIcon fontSize="small" />
                            </InputAdornment>
                        ),
                    },
                }}
            />
            {showCompany && <CompanySelect value={value.company_id} onChange={(company_id) => set({ company_id })} />}
            <MonitorHealthSelect value={value.status} onChange={(status) => set({ status })} />
            <TextField
                select
                size="small"
                label="Enabled"
                value={value.is_enabled}
                onChange={(event) => set({ is_enabled: event.target.value as ConfigurationFilterValues['is_enabled'] })}
                sx={{ minWidth: 140 }}
                slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
                <MenuItem value="">All</MenuItem>
                <MenuItem value="true">Enabled</MenuItem>
                <MenuItem value="false">Disabled</MenuItem>
            </TextField>
        </Box>
    );
};

const CompanySelect = ({ value, onChange }: { value: string; onChange: (value: string) => void }) => {
    const { data: companies = [] } = useGetList<Company>(
        'companies',
        { pagination: { page: 1, perPage: 1000 }, sort: { field: 'name', order: 'ASC' } },
        { retry: retryUnlessClientError }
    );
    return (
        <TextField
            select
            size="small"
            label="Company"
            value={value}
            onChange={(event) => onChange(event.target.value)}
            sx={{ minWidth: 180 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
            <MenuItem value="">All Companies</MenuItem>
            {companies.map((company) => (
                <MenuItem key={company.id} value={String(company.id)}>
                    {company.name}
                </MenuItem>
            ))}
        </TextField>
    );
};
