import { Box, Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';

import { INCIDENT_UPDATE_STATUSES, type IncidentUpdateStatus } from '../../../common/status-pages';
import { errorReason, formatDateTime } from '../../ui/format';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';

const LABELS: Record<IncidentUpdateStatus, string> = {
    investigating: 'Investigating',
    identified: 'Identified',
    monitoring: 'Monitoring',
    resolved: 'Resolved',
};

/**
 * What the company tells visitors of its status pages about this incident; the only part of it they see besides its
 * times, so the timeline and notes above stay internal.
 */
export const PublicUpdates = ({ incidentId, canPost }: { incidentId: string; canPost: boolean }) => {
    const api = useNodeMonitorDataProvider();
    const dataProvider = useDataProvider();
    const notify = useNotify();
    const [status, setStatus] = useState<IncidentUpdateStatus>('investigating');
    const [text, setText] = useState('');
    const [busy, setBusy] = useState(false);
    const { data: updates = [], refetch } = useQuery({
        queryKey: ['incidents', incidentId, 'updates'],
        queryFn: () => api.getIncidentUpdates(incidentId),
    });
    const post = async () => {
        setBusy(true);
        try {
            await dataProvider.create(`incidents/${encodeURIComponent(incidentId)}/updates`, {
                data: { status, text: text.trim() },
            });
            notify('Public update posted', { type: 'success' });
            setText('');
            await refetch();
        } catch (error) {
            notify(`Failed! Error: ${errorReason(error)}`, { type: 'error' });
        } finally {
            setBusy(false);
        }
    };
    return (
        <Box sx={{ mt: 3 }}>
            <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                Public updates
            </Typography>
            {updates.length === 0 ? (
                <Typography color="text.secondary">
                    None yet: status pages show this incident without a word.
                </Typography>
            ) : (
                <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
                    {updates.map((u) => (
                        <li key={u.id}>
                            <Typography>
                                <strong>{LABELS[u.status]}</strong> · {formatDateTime(u.created_at)} · {u.created_by}
                            </Typography>
                            <Typography sx={{ overflowWrap: 'anywhere' }}>{u.text}</Typography>
                        </li>
                    ))}
                </Stack>
            )}
            {canPost && (
                <Stack
                    direction={{ xs: 'column', sm: 'row' }}
                    spacing={1}
                    sx={{ mt: 2 }}
                    alignItems={{ sm: 'flex-start' }}
                >
                    <TextField
                        select
                        label="Status"
                        value={status}
                        onChange={(e) => setStatus(e.target.value as IncidentUpdateStatus)}
                        sx={{ minWidth: 160 }}
                    >
                        {INCIDENT_UPDATE_STATUSES.map((s) => (
                            <MenuItem key={s} value={s}>
                                {LABELS[s]}
                            </MenuItem>
                        ))}
                    </TextField>
                    <TextField
                        label="Update for the status pages"
                        value={text}
                        onChange={(e) => setText(e.target.value)}
                        multiline
                        fullWidth
                        slotProps={{ htmlInput: { maxLength: 2000 } }}
                    />
                    <Button variant="contained" disabled={busy || !text.trim()} onClick={post}>
                        Post update
                    </Button>
                </Stack>
            )}
        </Box>
    );
};
