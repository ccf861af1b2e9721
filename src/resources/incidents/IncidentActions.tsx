import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';

import type { Incident } from '../../../common/incidents';
import { withServerMessage } from '../../ui/format';

type Action = 'ack' | 'notes';

const TEXTS: Record<Action, { button: string; title: string; label: string; done: string; failed: string }> = {
    ack: {
        button: 'Acknowledge',
        title: 'Acknowledge incident',
        label: 'Note (optional)',
        done: 'Incident acknowledged',
        failed: 'Failed to acknowledge incident',
    },
    notes: {
        button: 'Add note',
        title: 'Add a note',
        label: 'Note',
        done: 'Note added',
        failed: 'Failed to add note',
    },
};

/**
 * Acknowledge (while open and not yet acknowledged) and Add note, each a small dialog; shown to admins only, since
 * the server answers 403 to plain users.
 */
export const IncidentActions = ({ incident, onDone }: { incident: Incident; onDone: () => void }) => {
    const [open, setOpen] = useState<Action | null>(null);
    const canAck = incident.status === 'open' && !incident.acknowledged_at;
    return (
        <Stack direction="row" spacing={1}>
            {canAck && (
                <Button variant="contained" color="warning" onClick={() => setOpen('ack')}>
                    {TEXTS.ack.button}
                </Button>
            )}
            <Button variant="outlined" onClick={() => setOpen('notes')}>
                {TEXTS.notes.button}
            </Button>
            {open && (
                <NoteDialog
                    action={open}
                    incidentId={incident.id}
                    onClose={(done) => {
                        setOpen(null);
                        if (done) onDone();
                    }}
                />
            )}
        </Stack>
    );
};

const NoteDialog = ({
    action,
    incidentId,
    onClose,
}: {
    action: Action;
    incidentId: string;
    onClose: (done: boolean) => void;
}) => {
    const dataProvider = useDataProvider();
    const notify = useNotify();
    const [note, setNote] = useState('');
    const [busy, setBusy] = useState(false);
    const text = TEXTS[action];
    const required = action === 'notes';
    const submit = async () => {
        setBusy(true);
        try {
            // POST /incidents/{id}/ack or /notes, as react-admin's create of that path.
            await dataProvider.create(`incidents/${encodeURIComponent(incidentId)}/${action}`, {
                data: note.trim() ? { note: note.trim() } : {},
            });
            notify(text.done, { type: 'success' });
            onClose(true);
        } catch (error) {
            notify(withServerMessage(text.failed, error), { type: 'error' });
            setBusy(false);
        }
    };
    return (
        <Dialog open onClose={() => onClose(false)} fullWidth maxWidth="sm" aria-labelledby="incident-action-title">
            <DialogTitle id="incident-action-title">{text.title}</DialogTitle>
            <DialogContent>
                <TextField
                    autoFocus
                    fullWidth
                    multiline
                    minRows={2}
                    margin="dense"
                    label={text.label}
                    value={note}
                    required={required}
                    onChange={(e) => setNote(e.target.value)}
                    slotProps={{ htmlInput: { maxLength: 2000 } }}
                />
            </DialogContent>
            <DialogActions>
                <Button onClick={() => onClose(false)}>Cancel</Button>
                <Button variant="contained" disabled={busy || (required && !note.trim())} onClick={submit}>
                    {text.button}
                </Button>
            </DialogActions>
        </Dialog>
    );
};
