import {
    Button,
    Checkbox,
    Dialog,
    DialogActions,
    DialogContent,
    DialogTitle,
    FormControlLabel,
    MenuItem,
    TextField,
} from '@mui/material';
import { useState } from 'react';
import { useCreate, useNotify } from 'react-admin';

import type { Server } from '../../../common/entities';
import { withServerMessage } from '../ui/format';

const fieldErrors = (error: unknown) => (error as { body?: { errors?: Record<string, string> } }).body?.errors ?? {};
const iso = (local: string) => {
    const at = local ? new Date(local) : null;
    return at && !Number.isNaN(at.getTime()) ? at.toISOString() : local;
};

export interface MaintenanceWindowDialogProps {
    open: boolean;
    configurationId: number;
    servers: Pick<Server, 'id' | 'name'>[];
    onClose: () => void;
}

/**
 * Plans a maintenance window for the whole configuration or one of its servers (POST /api/maintenance-windows):
 * its alerts are held back while it is on, weekly at the same time when it repeats.
 */
export const MaintenanceWindowDialog = ({ open, configurationId, servers, onClose }: MaintenanceWindowDialogProps) => {
    const notify = useNotify();
    const [create, { isPending }] = useCreate();
    const [form, setForm] = useState({ scope: 'configuration', starts_at: '', ends_at: '', repeat: false, reason: '' });
    const [errors, setErrors] = useState<Record<string, string>>({});

    const submit = () => {
        const target =
            form.scope === 'configuration'
                ? { configuration_id: configurationId }
                : { server_id: Number(form.scope.replace('server-', '')) };
        const data = {
            ...target,
            starts_at: iso(form.starts_at),
            ends_at: iso(form.ends_at),
            repeat_weekly: form.repeat,
            reason: form.reason.trim(),
        };
        create(
            'maintenance-windows',
            { data },
            {
                onSuccess: () => {
                    notify('Maintenance window planned', { type: 'success' });
                    setForm({ scope: 'configuration', starts_at: '', ends_at: '', repeat: false, reason: '' });
                    setErrors({});
                    onClose();
                },
                onError: (error) => {
                    setErrors(fieldErrors(error));
                    notify(withServerMessage('Failed to create maintenance window', error), { type: 'error' });
                },
            }
        );
    };

    return (
        <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="window-dialog-title">
            <DialogTitle id="window-dialog-title">Add maintenance window</DialogTitle>
            <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
                <TextField
                    select
                    label="Applies to"
                    value={form.scope}
                    onChange={(e) => setForm({ ...form, scope: e.target.value })}
                >
                    <MenuItem value="configuration">The whole configuration</MenuItem>
                    {servers.map((s) => (
                        <MenuItem key={s.id} value={`server-${s.id}`}>{`Server ${s.name}`}</MenuItem>
                    ))}
                </TextField>
                <TextField
                    type="datetime-local"
                    label="Starts at"
                    required
                    value={form.starts_at}
                    onChange={(e) => setForm({ ...form, starts_at: e.target.value })}
                    error={Boolean(errors.starts_at)}
                    helperText={errors.starts_at}
                    slotProps={{ inputLabel: { shrink: true } }}
                />
                <TextField
                    type="datetime-local"
                    label="Ends at"
                    required
                    value={form.ends_at}
                    onChange={(e) => setForm({ ...form, ends_at: e.target.value })}
                    error={Boolean(errors.ends_at)}
                    helperText={errors.ends_at}
                    slotProps={{ inputLabel: { shrink: true } }}
                />
                <FormControlLabel
                    control={
                        <Checkbox
                            checked={form.repeat}
                            onChange={(e) => setForm({ ...form, repeat: e.target.checked })}
                        />
                    }
                    label="Repeat every week"
                />
                <TextField
                    label="Reason"
                    required
                    value={form.reason}
                    onChange={(e) => setForm({ ...form, reason: e.target.value })}
                    error={Boolean(errors.reason)}
                    helperText={errors.reason}
                    slotProps={{ htmlInput: { maxLength: 500 } }}
                />
            </DialogContent>
            <DialogActions>
                <Button onClick={onClose}>Cancel</Button>
                <Button variant="contained" onClick={submit} disabled={isPending}>
                    Add
                </Button>
            </DialogActions>
        </Dialog>
    );
};
