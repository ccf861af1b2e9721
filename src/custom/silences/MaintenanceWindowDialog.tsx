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

import type { Server } from '../../../common/entities';
import type { MaintenanceWindow, WindowMutes } from '../../../common/silences';
import { useSaveDialog } from '../../ui/useSaveDialog';
import { DialogError } from '../../ui/DialogError';

// Windows are only added here; the edit texts are there for the shared hook's shape.
const TEXTS = {
    added: 'Maintenance window planned',
    edited: 'Maintenance window planned',
    addFailed: 'Failed to create maintenance window',
    editFailed: 'Failed to create maintenance window',
};
const EMPTY = {
    scope: 'configuration',
    starts_at: '',
    ends_at: '',
    repeat: false,
    mutes: 'node' as WindowMutes,
    reason: '',
};
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
    const [form, setForm] = useState(EMPTY);
    const [errors, setErrors] = useState<Record<string, string>>({});
    const { save, saving, error, resetError } = useSaveDialog<MaintenanceWindow>(
        'maintenance-windows',
        null,
        TEXTS,
        () => {
            setForm(EMPTY);
            onClose();
        }
    );

    const submit = async () => {
        const target =
            form.scope === 'configuration'
                ? { configuration_id: configurationId }
                : { server_id: Number(form.scope.replace('server-', '')) };
        const data = {
            ...target,
            starts_at: iso(form.starts_at),
            ends_at: iso(form.ends_at),
            repeat_weekly: form.repeat,
            mutes: form.mutes,
            reason: form.reason.trim(),
        };
        // A refusal marks the fields the server named; a success has none left to show.
        setErrors((await save(data)) ?? {});
    };

    return (
        <Dialog
            slotProps={{ transition: { onExited: resetError } }}
            open={open}
            onClose={onClose}
            fullWidth
            maxWidth="xs"
            aria-labelledby="window-dialog-title"
        >
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
                <TextField
                    select
                    label="Mutes"
                    value={form.mutes}
                    onChange={(e) => setForm({ ...form, mutes: e.target.value as WindowMutes })}
                    error={Boolean(errors.mutes)}
                    helperText={
                        errors.mutes ??
                        (form.mutes === 'node'
                            ? 'URL, block and disk checks only: validator duty (jailed, missed blocks…) still alerts'
                            : 'Every monitor, validator duty included')
                    }
                >
                    <MenuItem value="node">Node health</MenuItem>
                    <MenuItem value="all">Everything</MenuItem>
                </TextField>
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
            <DialogError message={error} />
            <DialogActions>
                <Button onClick={onClose}>Cancel</Button>
                <Button variant="contained" onClick={() => void submit()} disabled={saving}>
                    Add
                </Button>
            </DialogActions>
        </Dialog>
    );
};
