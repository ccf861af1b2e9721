import {
    Button,
    Dialog,
    DialogActions,
    DialogContent,
    DialogTitle,
    FormControlLabel,
    Radio,
    RadioGroup,
    TextField,
} from '@mui/material';
import { useState } from 'react';
import { useCreate, useNotify } from 'react-admin';

import { formatDateTime, withServerMessage } from '../../ui/format';

/** What a silence covers: exactly one of these. */
export type SilenceTarget = { monitor_id: number } | { server_id: number } | { configuration_id: number };

const PRESETS = [
    { value: '60', label: '1 hour' },
    { value: '240', label: '4 hours' },
    { value: '1440', label: '1 day' },
    { value: '10080', label: '1 week' },
    { value: 'custom', label: 'Until…' },
] as const;

const fieldErrors = (error: unknown) => (error as { body?: { errors?: Record<string, string> } }).body?.errors ?? {};

export interface SilenceDialogProps {
    open: boolean;
    target: SilenceTarget;
    /** The target's name, for the title and the toast. */
    name: string;
    onClose: () => void;
    onSilenced?: () => void;
}

/**
 * Mutes the alerts of a monitor, server or configuration for a preset duration or until a chosen time, with a
 * required reason (POST /api/silences). Checks keep running; one alert comes at the end if it is still failing.
 */
export const SilenceDialog = ({ open, target, name, onClose, onSilenced }: SilenceDialogProps) => {
    const notify = useNotify();
    const [create, { isPending }] = useCreate();
    const [duration, setDuration] = useState<string>('60');
    const [until, setUntil] = useState('');
    const [reason, setReason] = useState('');
    const [errors, setErrors] = useState<Record<string, string>>({});

    const endsAt = (): string | null => {
        if (duration !== 'custom') return new Date(Date.now() + Number(duration) * 60_000).toISOString();
        const at = until ? new Date(until) : null;
        return at && !Number.isNaN(at.getTime()) ? at.toISOString() : null;
    };

    const submit = () => {
        const ends_at = endsAt();
        const problems: Record<string, string> = {};
        if (!ends_at) problems.ends_at = 'Please choose when the silence ends';
        if (!reason.trim()) problems.reason = 'Please give a reason';
        setErrors(problems);
        if (Object.keys(problems).length > 0) return;
        create(
            'silences',
            { data: { ...target, ends_at, reason: reason.trim() } },
            {
                onSuccess: (silence: { ends_at?: string }) => {
                    notify(`Silenced "${name}" until ${formatDateTime(silence.ends_at ?? ends_at)}`, {
                        type: 'success',
                    });
                    setReason('');
                    onClose();
                    onSilenced?.();
                },
                onError: (error) => {
                    setErrors(fieldErrors(error));
                    notify(withServerMessage('Failed to create silence', error), { type: 'error' });
                },
            }
        );
    };

    return (
        <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="silence-dialog-title">
            <DialogTitle id="silence-dialog-title">{`Silence "${name}"`}</DialogTitle>
            <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
                <RadioGroup aria-label="Duration" value={duration} onChange={(e) => setDuration(e.target.value)} row>
                    {PRESETS.map((p) => (
                        <FormControlLabel key={p.value} value={p.value} control={<Radio />} label={p.label} />
                    ))}
                </RadioGroup>
                {duration === 'custom' && (
                    <TextField
                        type="datetime-local"
                        label="Ends at"
                        value={until}
                        onChange={(e) => setUntil(e.target.value)}
                        error={Boolean(errors.ends_at)}
                        helperText={errors.ends_at}
                        slotProps={{ inputLabel: { shrink: true } }}
                    />
                )}
                {duration !== 'custom' && errors.ends_at && <span role="alert">{errors.ends_at}</span>}
                <TextField
                    label="Reason"
                    required
                    value={reason}
                    onChange={(e) => setReason(e.target.value)}
                    error={Boolean(errors.reason)}
                    helperText={errors.reason ?? 'Shown with the silence and in the audit trail'}
                    slotProps={{ htmlInput: { maxLength: 500 } }}
                />
            </DialogContent>
            <DialogActions>
                <Button onClick={onClose}>Cancel</Button>
                <Button variant="contained" onClick={submit} disabled={isPending}>
                    Silence
                </Button>
            </DialogActions>
        </Dialog>
    );
};
