import { Card, CardContent, CardHeader, Stack, Typography } from '@mui/material';

import type { Configuration } from '../../../common/entities';
import { formatDateTime } from '../../ui/format';

const Row = ({ label, value }: { label: string; value: string }) => (
    <Typography>
        <strong>{label}:</strong> {value}
    </Typography>
);

/** Status, Company ('No Company'), Created At and Last Updated. */
export const ConfigurationDetailsCard = ({ configuration }: { configuration: Configuration }) => (
    <Card variant="outlined" sx={{ height: '100%' }}>
        <CardHeader title="Details" />
        <CardContent>
            <Stack spacing={1}>
                <Row label="Status" value={configuration.is_enabled ? 'Enabled' : 'Disabled'} />
                <Row label="Company" value={configuration.company?.name ?? 'No Company'} />
                <Row label="Created At" value={formatDateTime(configuration.createdAt)} />
                <Row label="Last Updated" value={formatDateTime(configuration.updatedAt)} />
            </Stack>
        </CardContent>
    </Card>
);
