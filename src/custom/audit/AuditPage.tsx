import { Box, Typography } from '@mui/material';
import { Title } from 'react-admin';

import { AuditTable } from './AuditTable';

/** /audit: the latest changes in the caller's company, newest first. */
export const AuditPage = () => (
    <Box>
        <Title title="Audit" />
        <Typography variant="h4" component="h1" sx={{ mb: 3 }}>
            Audit
        </Typography>
        <AuditTable />
    </Box>
);
