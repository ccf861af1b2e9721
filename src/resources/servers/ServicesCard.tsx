import AddIcon from '@mui/icons-material/Add';
import NetworkCheckIcon from '@mui/icons-material/NetworkCheck';
import { Button, Card, CardContent, CardHeader, Chip, Link, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable } from 'react-admin';

import type { Server, Service } from '../../../common/entities';
import { ServiceDialog } from '../services/ServiceDialog';
import { ServiceTestDialog } from '../services/ServiceTestDialog';
import type { ServiceDependents } from '../../providers/customMethods';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { RowAction, RowActions } from '../../ui/RowActions';
import { useConfirmedDelete } from '../../ui/useConfirmedDelete';
import { useRecordDialog } from '../../ui/useSaveDialog';
import { LocalDataTable } from '../../ui/LocalDataTable';

export const SERVICE_DELETED = 'Service deleted successfully';
export const SERVICE_DELETE_FAILED = 'Failed to delete service';

export interface ServicesCardProps {
    server: Server;
    services: Service[];
    canWrite: boolean;
    /** After a service was added (with its monitors), edited or deleted. */
    onChanged: () => void;
}

/** The server's services: Name, Type, Address, Status and Actions (edit, test endpoint, delete). */
export const ServicesCard = ({ server, services, canWrite, onChanged }: ServicesCardProps) => {
    const dialog = useRecordDialog<Service>();
    const [testing, setTesting] = useState<Service | null>(null);
    const remove = useConfirmedDelete<Service>('services', {
        noun: 'service',
        nameOf: (s) => s.name,
        deleted: SERVICE_DELETED,
        failed: () => SERVICE_DELETE_FAILED,
        details: (s) => <ServiceDependentsText service={s} />,
        onDeleted: onChanged,
    });

    return (
        <Card variant="outlined">
            <CardHeader
                title="Services"
                action={
                    canWrite && (
                        <Button variant="contained" startIcon={<AddIcon />} onClick={dialog.openAdd}>
                            Add Service
                        </Button>
                    )
                }
            />
            <CardContent sx={{ pt: 0, overflowX: 'auto' }}>
                <LocalDataTable<Service>
                    resource="services"
                    data={services}
                    aria-label="Services"
                    emptyText="No services configured yet"
                >
                    <DataTable.Col source="name" label="Name" disableSort />
                    <DataTable.Col
                        source="type"
                        label="Type"
                        disableSort
                        render={(service: Service) => <Chip size="small" variant="outlined" label={service.type} />}
                    />
                    <DataTable.Col
                        source="address"
                        label="Address"
                        disableSort
                        sx={{ wordBreak: 'break-all' }}
                        render={(service: Service) => (
                            <Link href={service.address} target="_blank" rel="noopener noreferrer">
                                {service.address}
                            </Link>
                        )}
                    />
                    <DataTable.Col
                        source="is_enabled"
                        label="Status"
                        disableSort
                        render={(service: Service) => (
                            <Chip
                                size="small"
                                label={service.is_enabled ? 'Enabled' : 'Disabled'}
                                color={service.is_enabled ? 'success' : 'default'}
                            />
                        )}
                    />
                    <DataTable.Col
                        label="Actions"
                        align="right"
                        render={(service: Service) => (
                            <RowActions
                                noun="service"
                                name={service.name}
                                onEdit={canWrite ? () => dialog.openEdit(service) : undefined}
                                onDelete={canWrite ? () => remove.ask(service) : undefined}
                            >
                                <RowAction
                                    title="Test endpoint"
                                    label={`Test endpoint ${service.name}`}
                                    icon={<NetworkCheckIcon fontSize="small" />}
                                    onClick={() => setTesting(service)}
                                />
                            </RowActions>
                        )}
                    />
                </LocalDataTable>
            </CardContent>
            {canWrite && (
                <ServiceDialog
                    open={dialog.open}
                    server={server}
                    record={dialog.record}
                    onClose={(saved) => {
                        dialog.close();
                        if (saved) onChanged();
                    }}
                />
            )}
            <ServiceTestDialog service={testing} onClose={() => setTesting(null)} />
            {remove.confirm}
        </Card>
    );
};

/** What deleting the service would take along, read from the API each time the confirmation opens. */
const useDependents = (service: Service): ServiceDependents | undefined => {
    const dataProvider = useNodeMonitorDataProvider();
    return useQuery({
        queryKey: ['nodeMonitor', 'serviceDependents', service.id],
        queryFn: () => dataProvider.getServiceDependents(service.id),
        // Without the list the question still stands; the delete itself reports any failure.
        retry: false,
        gcTime: 0,
    }).data;
};

const names = (monitors: { name: string }[]) => monitors.map((m) => `"${m.name}"`).join(', ');

const ServiceDependentsText = ({ service }: { service: Service }) => {
    const dependents = useDependents(service);
    if (!dependents) return null;
    return (
        <>
            {dependents.removed.length > 0 && (
                <Typography component="span" display="block" sx={{ mt: 1 }}>
                    {`Monitors created with this service will be deleted too: ${names(dependents.removed)}.`}
                </Typography>
            )}
            {dependents.losing_data_source.length > 0 && (
                <Typography component="span" display="block" sx={{ mt: 1 }} color="warning.main">
                    {`These monitors read through this service and will fail without it: ${names(dependents.losing_data_source)}.`}
                </Typography>
            )}
        </>
    );
};
