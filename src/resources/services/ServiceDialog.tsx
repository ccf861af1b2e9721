import {
    Button,
    Dialog,
    DialogActions,
    DialogContent,
    DialogTitle,
    FormControlLabel,
    MenuItem,
    Stack,
    Switch,
    TextField,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useCreate, useNotify } from 'react-admin';

import type { Server, Service } from '../../../common/entities';
import { defaultServiceAddress, SERVICE_TYPES, type ServiceType } from '../../../common/service-types';
import { monitorsForService } from './serviceMonitors';
import { withServerMessage } from '../../ui/format';
import { useSaveDialog } from '../../ui/useSaveDialog';
import { DialogError } from '../../ui/DialogError';

export const SERVICE_ADDED = 'Added service successfully!';
export const SERVICE_EDITED = 'Edited service successfully!';
export const SERVICE_ADD_FAILED = 'Failed to add service.';
export const SERVICE_EDIT_FAILED = 'Failed to edit service.';
const MONITOR_ADDED = 'Added monitor successfully';
const MONITOR_ADD_FAILED = 'Failed to add monitor';
const TEXTS = {
    added: SERVICE_ADDED,
    edited: SERVICE_EDITED,
    addFailed: SERVICE_ADD_FAILED,
    editFailed: SERVICE_EDIT_FAILED,
};

export interface ServiceDialogProps {
    open: boolean;
    /** `saved` is true after the service was created or updated. */
    onClose: (saved: boolean) => void;
    /** The server the service belongs to: its address seeds the default service address. */
    server: Pick<Server, 'id' | 'address' | 'configuration_id'>;
    /** The service to edit; absent to add one. */
    record?: Service | null;
}

interface ServiceValues {
    name: string;
    type: ServiceType;
    address: string;
    is_enabled: boolean;
    create_monitor: boolean;
}

const initialValues = (server: ServiceDialogProps['server'], record?: Service | null): ServiceValues =>
    record
        ? {
              name: record.name,
              type: record.type,
              address: record.address,
              is_enabled: record.is_enabled,
              create_monitor: false,
          }
        : {
              name: 'rpc',
              type: 'rpc',
              address: defaultServiceAddress(server.address, 'rpc'),
              is_enabled: true,
              create_monitor: true,
          };

type FieldErrors = Partial<Record<'name' | 'address' | 'type', string>>;

/** POST/PUT /services body (docs/spec.md §7). */
const toServiceBody = (values: ServiceValues, serverId: number) => ({
    name: values.name.trim(),
    type: values.type,
    address: values.address.trim(),
    is_enabled: values.is_enabled,
    server_id: serverId,
});

/**
 * Add/Edit Service: Name (defaults to the type), Type, Address (defaults to the server address plus the type's
 * port and path), Is Enabled and, on add only, 'Create Monitor?'. Changing the type moves the name and address
 * along unless the user typed their own.
 */
export const ServiceDialog = (props: ServiceDialogProps) =>
    props.open ? <ServiceDialogBody key={props.record?.id ?? 'new'} {...props} /> : null;

const ServiceDialogBody = ({ open, onClose, server, record }: ServiceDialogProps) => {
    const notify = useNotify();
    const [create, { isPending: creatingMonitor }] = useCreate();
    const [values, setValues] = useState(() => initialValues(server, record));
    const [errors, setErrors] = useState<FieldErrors>({});
    const { save, editing, saving, error, resetError } = useSaveDialog<Service>('services', record, TEXTS, (saved) => {
        // The dialog stays open while the new service's monitors are made, then closes either way.
        if (editing || !values.create_monitor) onClose(true);
        else void createMonitors({ ...toServiceBody(values, server.id), id: saved.id }).then(() => onClose(true));
    });

    const set = <K extends keyof ServiceValues>(key: K, value: ServiceValues[K]) =>
        setValues((current) => ({ ...current, [key]: value }));

    const changeType = (type: ServiceType) =>
        setValues((current) => ({
            ...current,
            type,
            // Still the default of the previous type (or empty): follow the new type.
            name: current.name.trim() === '' || current.name === current.type ? type : current.name,
            address:
                current.address.trim() === '' || current.address === defaultServiceAddress(server.address, current.type)
                    ? defaultServiceAddress(server.address, type)
                    : current.address,
        }));

    const createMonitors = async (service: Pick<Service, 'id' | 'name' | 'address' | 'type'>) => {
        let created = 0;
        for (const body of monitorsForService(service, server.id, server.configuration_id)) {
            // Linked to its service: it follows the service's address and is deleted with it.
            const data = { ...body, service_id: service.id };
            try {
                await create('monitors', { data }, { returnPromise: true });
                created++;
            } catch (error) {
                notify(withServerMessage(MONITOR_ADD_FAILED, error), { type: 'error' });
            }
        }
        if (created > 0) notify(MONITOR_ADDED, { type: 'success' });
    };

    const submit = async (event: FormEvent) => {
        event.preventDefault();
        setErrors({});
        setErrors((await save(toServiceBody(values, server.id))) ?? {});
    };

    return (
        <Dialog
            slotProps={{ transition: { onExited: resetError } }}
            open={open}
            onClose={() => onClose(false)}
            fullWidth
            maxWidth="sm"
            aria-labelledby="service-dialog-title"
        >
            <form onSubmit={submit} noValidate>
                <DialogTitle id="service-dialog-title">{editing ? 'Edit Service' : 'Add Service'}</DialogTitle>
                <DialogContent>
                    <Stack spacing={2} sx={{ pt: 1 }}>
                        <TextField
                            label="Name"
                            value={values.name}
                            onChange={(event) => set('name', event.target.value)}
                            error={!!errors.name}
                            helperText={errors.name}
                            fullWidth
                        />
                        <TextField
                            select
                            label="Type"
                            value={values.type}
                            onChange={(event) => changeType(event.target.value as ServiceType)}
                            error={!!errors.type}
                            helperText={errors.type}
                            fullWidth
                        >
                            {SERVICE_TYPES.map((type) => (
                                <MenuItem key={type} value={type}>
                                    {type}
                                </MenuItem>
                            ))}
                        </TextField>
                        <TextField
                            label="Address"
                            value={values.address}
                            onChange={(event) => set('address', event.target.value)}
                            error={!!errors.address}
                            helperText={errors.address}
                            fullWidth
                        />
                        <FormControlLabel
                            control={
                                <Switch
                                    checked={values.is_enabled}
                                    onChange={(event) => set('is_enabled', event.target.checked)}
                                />
                            }
                            label="Is Enabled"
                        />
                        {!editing && (
                            <FormControlLabel
                                control={
                                    <Switch
                                        checked={values.create_monitor}
                                        onChange={(event) => set('create_monitor', event.target.checked)}
                                    />
                                }
                                label="Create Monitor?"
                            />
                        )}
                    </Stack>
                </DialogContent>
                <DialogError message={error} />
                <DialogActions>
                    <Button onClick={() => onClose(false)}>Cancel</Button>
                    <Button type="submit" variant="contained" disabled={saving || creatingMonitor}>
                        {editing ? 'Save' : 'Add'}
                    </Button>
                </DialogActions>
            </form>
        </Dialog>
    );
};
