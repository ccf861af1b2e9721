import {
    Alert,
    Box,
    Button,
    Dialog,
    DialogActions,
    DialogContent,
    DialogTitle,
    MenuItem,
    TextField,
    Typography,
} from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { DataTable, Title, useNotify } from 'react-admin';

import { fieldErrors } from '../../ui/useSaveDialog';
import { withServerMessage } from '../../ui/format';
import { RowActions } from '../../ui/RowActions';
import { authRequest } from '../../providers/session';
import { LocalDataTable } from '../../ui/LocalDataTable';

interface ApiToken {
    id: number;
    name: string;
    scope: 'read' | 'write';
    expires_at: string | null;
    last_used_at: string | null;
    created_at: string;
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
const EMPTY_FORM = { name: '', scope: 'read', expires_at: '' };

/**
 * /api-tokens: the signed-in user's API tokens for scripts (`Authorization: Bearer nmt_…`). A new token's secret is
 * shown once, right after it is made; the server keeps only its hash.
 */
export const ApiTokensPage = () => {
    const notify = useNotify();
    const [adding, setAdding] = useState(false);
    const [form, setForm] = useState(EMPTY_FORM);
    const [errors, setErrors] = useState<Record<string, string>>({});
    const [secret, setSecret] = useState<string | null>(null);

    const list = useQuery({
        queryKey: ['nodeMonitor', 'apiTokens'],
        queryFn: async () => (await authRequest<ApiToken[]>('/tokens')).json ?? [],
        retry: false,
    });
    useEffect(() => {
        if (list.error) notify(withServerMessage('Failed to load API tokens', list.error), { type: 'error' });
    }, [list.error, notify]);
    // A list that failed to load reads as empty, under the toast.
    const tokens = list.isError ? [] : list.data;

    const create = useMutation({
        mutationFn: () =>
            authRequest<{ token: string }>('/tokens', {
                method: 'POST',
                body: {
                    name: form.name,
                    scope: form.scope,
                    ...(form.expires_at ? { expires_at: new Date(form.expires_at).toISOString() } : {}),
                },
            }),
        onMutate: () => setErrors({}),
        onSuccess: (res) => {
            setAdding(false);
            setForm(EMPTY_FORM);
            setSecret(res.json?.token ?? null);
            void list.refetch();
        },
        onError: (error) => {
            setErrors(fieldErrors(error) ?? {});
            notify(withServerMessage('Failed to create API token', error), { type: 'error' });
        },
    });

    const remove = useMutation({
        mutationFn: (token: ApiToken) => authRequest(`/tokens/${token.id}`, { method: 'DELETE' }),
        onSuccess: (_, token) => {
            notify(`API token "${token.name}" deleted`, { type: 'success' });
            void list.refetch();
        },
        onError: (error) => notify(withServerMessage('Failed to delete API token', error), { type: 'error' }),
    });

    return (
        <Box>
            <Title title="API tokens" />
            <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 2, gap: 1 }}>
                <Typography variant="h4" component="h1">
                    API tokens
                </Typography>
                <Button variant="contained" onClick={() => setAdding(true)}>
                    Create token
                </Button>
            </Box>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
                A token acts as you on the API (`Authorization: Bearer …`). A read token cannot change anything.
            </Typography>
            {secret && (
                <Alert severity="success" onClose={() => setSecret(null)} sx={{ mb: 2, wordBreak: 'break-all' }}>
                    Copy this token now; it is not shown again: <code>{secret}</code>
                </Alert>
            )}
            {tokens?.length === 0 && <Typography>No API tokens yet</Typography>}
            {tokens && tokens.length > 0 && (
                <Box sx={{ overflowX: 'auto' }}>
                    <LocalDataTable<ApiToken> resource="api-tokens" aria-label="API tokens" data={tokens}>
                        <DataTable.Col source="name" label="Name" disableSort />
                        <DataTable.Col source="scope" label="Scope" disableSort />
                        <DataTable.Col label="Expires" render={(t: ApiToken) => when(t.expires_at)} />
                        <DataTable.Col label="Last used" render={(t: ApiToken) => when(t.last_used_at)} />
                        <DataTable.Col label="Created" render={(t: ApiToken) => when(t.created_at)} />
                        <DataTable.Col
                            label=""
                            align="right"
                            render={(t: ApiToken) => (
                                <RowActions noun="API token" name={t.name} onDelete={() => remove.mutate(t)} />
                            )}
                        />
                    </LocalDataTable>
                </Box>
            )}
            <Dialog open={adding} onClose={() => setAdding(false)} fullWidth maxWidth="xs">
                <DialogTitle>Create API token</DialogTitle>
                <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
                    <TextField
                        label="Name"
                        value={form.name}
                        onChange={(e) => setForm({ ...form, name: e.target.value })}
                        error={Boolean(errors.name)}
                        helperText={errors.name ?? 'What the token is for, e.g. "Grafana export"'}
                    />
                    <TextField
                        select
                        label="Scope"
                        value={form.scope}
                        onChange={(e) => setForm({ ...form, scope: e.target.value })}
                        helperText="read: GET only; write: whatever you may do"
                    >
                        <MenuItem value="read">read</MenuItem>
                        <MenuItem value="write">write</MenuItem>
                    </TextField>
                    <TextField
                        type="datetime-local"
                        label="Expires at"
                        value={form.expires_at}
                        onChange={(e) => setForm({ ...form, expires_at: e.target.value })}
                        error={Boolean(errors.expires_at)}
                        helperText={errors.expires_at ?? 'Optional; empty never expires'}
                        slotProps={{ inputLabel: { shrink: true } }}
                    />
                </DialogContent>
                <DialogActions>
                    <Button onClick={() => setAdding(false)}>Cancel</Button>
                    <Button variant="contained" disabled={create.isPending} onClick={() => create.mutate()}>
                        Create
                    </Button>
                </DialogActions>
            </Dialog>
        </Box>
    );
};
