import { BooleanInput, NumberInput, SelectInput, TextInput, useNotify } from 'react-admin';

import type { Monitor } from '../../../common/entities';
import { MONITOR_CATALOGUE, MONITOR_TYPES, needsServer } from '../../../common/monitor-types';
import { MonitorSettingsInputs } from './MonitorSettingsInputs';
import {
    type MonitorFormValues,
    SERVER_REQUIRED,
    TYPE_REQUIRED,
    toFormErrors,
    toMonitorBody,
    toMonitorFormValues,
    validateMonitorName,
} from './monitorForm';
import { useSaveDialog } from '../../ui/useSaveDialog';
import { FormDialog } from '../../ui/FormDialog';

export interface MonitorDialogProps {
    open: boolean;
    /** `saved` is true after a successful create or update. */
    onClose: (saved: boolean) => void;
    configurationId: number;
    /** The servers a monitor of this configuration may check. */
    servers: { id: number; name: string }[];
    /** Preselected server when adding (e.g. from a server page). */
    defaultServerId?: number | null;
    /** The monitor to edit; absent to add one. */
    record?: Monitor;
}

const TEXTS = {
    added: 'Added monitor successfully',
    edited: 'Updated monitor successfully',
    addFailed: 'Failed to add monitor',
    editFailed: 'Failed to update monitor',
};

const TYPE_CHOICES = MONITOR_TYPES.map((type) => ({ id: type, name: MONITOR_CATALOGUE[type].label }));

/** Add/Edit Monitor: type, name, server, enabled flag and the type's settings. */
export function MonitorDialog({
    open,
    onClose,
    configurationId,
    servers,
    defaultServerId,
    record,
}: MonitorDialogProps) {
    const notify = useNotify();
    const { save, editing, error, resetError } = useSaveDialog<Monitor>('monitors', record, TEXTS, (saved) => {
        // Saved, but the server sees it cannot work as set (e.g. no oracle path for the chain): say so now.
        const warnings: unknown = (saved as { warnings?: unknown } | undefined)?.warnings;
        if (Array.isArray(warnings)) {
            for (const warning of warnings) if (typeof warning === 'string') notify(warning, { type: 'warning' });
        }
        onClose(true);
    });

    const submit = async (raw: Record<string, unknown>) => {
        const values = raw as unknown as MonitorFormValues;
        const { type } = values;
        if (!type) {
            notify(TYPE_REQUIRED, { type: 'error' });
            return;
        }
        if (needsServer(type) && (values.server_id === null || values.server_id === '')) {
            notify(SERVER_REQUIRED, { type: 'error' });
            return;
        }
        return toFormErrors(await save(toMonitorBody({ ...values, type }, configurationId)), type);
    };

    return (
        <FormDialog
            open={open}
            onClose={() => onClose(false)}
            name="monitor"
            title={editing ? 'Edit Monitor' : 'Add Monitor'}
            recordId={record?.id}
            record={toMonitorFormValues(record, defaultServerId) as unknown as Record<string, unknown>}
            onSubmit={submit}
            resource="monitors"
            error={error}
            onExited={resetError}
            saveLabel={editing ? 'Save' : 'Add'}
        >
            <SelectInput source="type" label="Type" choices={TYPE_CHOICES} emptyText="Select a type" fullWidth />
            <TextInput source="name" label="Name" validate={validateMonitorName} fullWidth />
            <SelectInput
                source="server_id"
                label="Server"
                choices={servers}
                optionText="name"
                emptyText="None"
                fullWidth
            />
            <BooleanInput source="is_enabled" label="Is Enabled" />
            <MonitorSettingsInputs />
            <TextInput
                source="locations"
                label="Locations"
                helperText="Probe locations that check it, comma-separated; empty: every location"
                fullWidth
            />
            <NumberInput
                source="confirm"
                label="Confirm"
                helperText="How many locations must see a failure before Error"
                min={1}
                step={1}
                fullWidth
            />
        </FormDialog>
    );
}
