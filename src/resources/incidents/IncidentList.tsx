import { Box, Typography } from '@mui/material';
import {
    DataTable,
    List,
    type ListProps,
    ReferenceInput,
    SelectInput,
    useGetManyReference,
    useListContext,
} from 'react-admin';

import type { Monitor } from '../../../common/entities';
import type { Incident } from '../../../common/incidents';
import { formatDateTime } from '../../ui/format';
import { IncidentStats } from './IncidentStats';
import { IncidentStatusChip, incidentSubject, seconds } from './incidentFormat';

/** The monitors of the configuration picked in the filters; a link from a monitor's page fills it in by id. */
const MonitorFilter = (props: { source: string; label: string; alwaysOn?: boolean }) => {
    const { filterValues } = useListContext();
    const configurationId = filterValues.configuration_id;
    const { data = [] } = useGetManyReference<Monitor>(
        'monitors',
        {
            target: 'configuration_id',
            id: configurationId,
            pagination: { page: 1, perPage: 1000 },
            sort: { field: 'name', order: 'ASC' },
        },
        { enabled: Boolean(configurationId) }
    );
    return (
        <SelectInput
            {...props}
            choices={data}
            optionText="name"
            disabled={!configurationId && !filterValues.monitor_id}
            helperText={configurationId ? false : 'Pick a configuration first'}
        />
    );
};

const filters = [
    <SelectInput
        key="status"
        source="status"
        label="Status"
        alwaysOn
        choices={[
            { id: 'open', name: 'Open' },
            { id: 'closed', name: 'Closed' },
        ]}
    />,
    <ReferenceInput key="configuration" source="configuration_id" reference="configurations" alwaysOn>
        <SelectInput label="Configuration" optionText="name" />
    </ReferenceInput>,
    <MonitorFilter key="monitor" source="monitor_id" label="Monitor" alwaysOn />,
];

/**
 * /incidents: every outage of the company, newest first, filtered by status, configuration and monitor (in the
 * server), with MTTA and MTTR over the filtered set above the table.
 */
export const IncidentList = (props: Partial<ListProps>) => (
    <List<Incident>
        {...props}
        resource="incidents"
        title="Incidents"
        filters={filters}
        sort={{ field: 'opened_at', order: 'DESC' }}
        perPage={25}
        exporter={false}
        // The page keeps its heading, figures and filters with nothing to list (react-admin's own empty page is greyed
        // out below contrast AA); the table says "No results found".
        empty={false}
    >
        <Box sx={{ px: 2, pt: 2 }}>
            <Typography variant="h4" component="h1" sx={{ mb: 2 }}>
                Incidents
            </Typography>
            <IncidentStats />
        </Box>
        {/* At phone width the columns scroll sideways rather than squeeze each other. */}
        <Box sx={{ overflowX: 'auto', maxWidth: 'calc(100vw - 16px)' }}>
            <DataTable<Incident> rowClick={(id) => `/incidents/${id}`} bulkActionButtons={false}>
                <DataTable.Col
                    source="status"
                    label="Status"
                    render={(r: Incident) => <IncidentStatusChip incident={r} />}
                />
                <DataTable.Col source="monitor_name" label="Monitor" render={(r: Incident) => incidentSubject(r)} />
                <DataTable.Col source="configuration_name" label="Configuration" />
                <DataTable.Col source="server_name" label="Server" render={(r: Incident) => r.server_name ?? '—'} />
                <DataTable.Col
                    source="opened_at"
                    label="Opened"
                    render={(r: Incident) => formatDateTime(r.opened_at)}
                />
                <DataTable.Col
                    source="duration_seconds"
                    label="Duration"
                    render={(r: Incident) => `${seconds(r.duration_seconds)}${r.status === 'open' ? ' so far' : ''}`}
                />
                <DataTable.Col
                    source="acknowledged_at"
                    label="Acknowledged"
                    render={(r: Incident) => (r.acknowledged_by ? `by ${r.acknowledged_by}` : '—')}
                />
            </DataTable>
        </Box>
    </List>
);
