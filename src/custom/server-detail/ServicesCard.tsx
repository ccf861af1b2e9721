import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import NetworkCheckIcon from '@mui/icons-material/NetworkCheck';
import {
    Button,
    Card,
    CardContent,
    CardHeader,
    Chip,
    IconButton,
    Link,
    Table,
    TableBody,
    TableCell,
    TableHead,
    TableRow,
    Tooltip,
    Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { useDelete, useNotify } from 'react-admin';

import type { Server, Service } from '../../../common/entities';
import { ServiceDialog } from '../../resources/services/ServiceDialog';
import { ServiceTestDialog } from '../../resources/services/ServiceTestDialog';
import type { ServiceDependents } from '../../providers/customMethods';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { DeleteConfirm } from '../ui/DeleteConfirm';

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
    const notify = useNotify();
    const [dialog, setDialog] = useState<{ open: boolean; service: Service | null }>({ open: false, service: null });
    const [testing, setTesting] = useState<Service | null>(null);
    const [toDelete, setToDelete] = useState<Service | null>(null);
    const [deleteOne, { isPending: deleting }] = useDelete<Service>();
    const dependents = useDependents(toDelete);

    const confirmDelete = () => {
        const service = toDelete;
        if (!service) return;
        deleteOne(
            'services',
            { id: service.id, previousData: service },
            {
                mutationMode: 'pessimistic',
                onSuccess: () => {
                    notify(SERVICE_DELETED, { type: 'success' });
                    setToDelete(null);
                    onChanged();
                },
                onError: () => {
                    notify(SERVICE_DELETE_FAILED, { type: 'error' });
                    setToDelete(null);
                },
            }
        );
    };

    return (
        <Card variant="outlined">
            <CardHeader
                title="Services"
                action={
                    canWrite && (
                        <Button
                            variant="contained"
                            startIcon={<AddIcon />}
                            onClick={() => setDialog({ open: true, service: null })}
                        >
                            Add Service
                        </Button>
                    )
                }
            />
            <CardContent sx={{ pt: 0, overflowX: 'auto' }}>
                {services.length === 0 ? (
                    <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
                        No services configured yet
                    </Typography>
                ) : (
                    <Table size="small" aria-label="Services">
                        <TableHead>
                            <TableRow>
                                <TableCell>Name</TableCell>
                                <TableCell>Type</TableCell>
                                <TableCell>Address</TableCell>
                                <TableCell>Status</TableCell>
                                <TableCell align="right">Actions</TableCell>
                            </TableRow>
                        </TableHead>
                        <TableBody>
                            {services.map((service) => (
                                <TableRow key={service.id}>
                                    <TableCell>{service.name}</TableCell>
                                    <TableCell>
                                        <Chip size="small" variant="outlined" label={service.type} />
                                    </TableCell>
                                    <TableCell sx={{ wordBreak: 'break-all' }}>
                                        <Link href={service.address} target="_blank" rel="noopener noreferrer">
                                            {service.address}
                                        </Link>
                                    </TableCell>
                                    <TableCell>
                                        <Chip
                                            size="small"
                                            label={service.is_enabled ? 'Enabled' : 'Disabled'}
                                            color={service.is_enabled ? 'success' : 'default'}
                                        />
                                    </TableCell>
                                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                                        {canWrite && (
                                            <Tooltip title="Edit">
                                                <IconButton
                                                    size="small"
                                                    aria-label={`Edit service ${service.name}`}
                                                    onClick={() => setDialog({ open: true, service })}
                                                >
                                                    <EditIcon fontSize="small" />
                                                </IconButton>
                                            </Tooltip>
                                        )}
                                        <Tooltip title="Test endpoint">
                                            <IconButton
                                                size="small"
                                                aria-label={`Test endpoint ${service.name}`}
                                                onClick={() => setTesting(service)}
                                            >
                                                <NetworkCheckIcon fontSize="small" />
                                            </IconButton>
                                        </Tooltip>
                                        {canWrite && (
                                            <Tooltip title="Delete">
                                                <IconButton
                                                    size="small"
                                                    color="error"
                                                    aria-label={`Delete service ${service.name}`}
                                                    onClick={() => setToDelete(service)}
                                                >
                                                    <DeleteIcon fontSize="small" />
                                                </IconButton>
                                            </Tooltip>
                                        )}
                                    </TableCell>
                                </TableRow>
                            ))}
                        </TableBody>
                    </Table>
                )}
            </CardContent>
            {canWrite && (
                <ServiceDialog
                    open={dialog.open}
                    server={server}
                    record={dialog.service}
                    onClose={(saved) => {
                        setDialog({ open: false, service: null });
                        if (saved) onChanged();
                    }}
                />
            )}
            <ServiceTestDialog service={testing} onClose={() => setTesting(null)} />
            <DeleteConfirm
                noun="service"
                name={toDelete?.name ?? null}
                loading={deleting}
                details={dependents && <DependentsText dependents={dependents} />}
                onConfirm={confirmDelete}
                onClose={() => setToDelete(null)}
            />
        </Card>
    );
};

/** What deleting the service would take along, read from the API while the confirmation is open. */
function useDependents(service: Service | null): ServiceDependents | null {
    const dataProvider = useNodeMonitorDataProvider();
    const [dependents, setDependents] = useState<ServiceDependents | null>(null);
    useEffect(() => {
        setDependents(null);
        if (!service) return;
        let current = true;
        dataProvider
            .getServiceDependents(service.id)
            .then((d) => current && setDependents(d))
            // Without the list the question still stands; the delete itself reports any failure.
            .catch(() => undefined);
        return () => {
            current = false;
        };
    }, [dataProvider, service]);
    return dependents;
}

const names = (monitors: { name: string }[]) => monitors.map((m) => `"${m.name}"`).join(', ');

const DependentsText = ({ dependents }: { dependents: ServiceDependents }) => (
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
