import { Box, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { Title } from 'react-admin';

import { AuditTable, type AuditTextFilter } from './AuditTable';

const FILTERS: { key: keyof AuditTextFilter; label: string }[] = [
    { key: 'configuration', label: 'Configuration' },
    { key: 'server', label: 'Server' },
    { key: 'monitor', label: 'Monitor' },
    { key: 'q', label: 'Text' },
];

/** Typing settles for this long before the list is asked again. */
const DEBOUNCE_MS = 300;

/** /audit: the latest changes in the caller's company, newest first, filtered by object names and text. */
export const AuditPage = () => {
    const [typed, setTyped] = useState<AuditTextFilter>({});
    const [applied, setApplied] = useState<AuditTextFilter>({});
    useEffect(() => {
        const timer = setTimeout(() => setApplied(typed), DEBOUNCE_MS);
        return () => clearTimeout(timer);
    }, [typed]);
    return (
        <Box>
            <Title title="Audit" />
            <Typography variant="h4" component="h1" sx={{ mb: 3 }}>
                Audit
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 2 }}>
                {FILTERS.map(({ key, label }) => (
                    <TextField
                        key={key}
                        size="small"
                        label={label}
                        placeholder={key === 'q' ? 'Filter by message text' : `Filter by ${label.toLowerCase()} name`}
                        value={typed[key] ?? ''}
                        onChange={(event) => setTyped((t) => ({ ...t, [key]: event.target.value }))}
                        slotProps={{ htmlInput: { maxLength: 200 } }}
                    />
                ))}
            </Stack>
            <AuditTable text={applied} />
        </Box>
    );
};
