import DeleteIcon from '@mui/icons-material/Delete';
import {
    Alert,
    Box,
    Button,
    Dialog,
    DialogActions,
    DialogContent,
    DialogTitle,
    IconButton,
    MenuItem,
    Table,
    TableBody,
    TableCell,
    TableHead,
    TableRow,
    TextField,
    Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { Title, useNotify } from 'react-admin';

import { withServerMessage } from '../ui/format';
import { authRequest } from '../../providers/session';

interface ApiToken {
    id: number;
    name: string;
    scope: 'read' | 'write';
    expires_at: string | null;
    last_used_at: string | null;
    created_at: string;
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
const fieldErrors = (error: unknown) => (error as { body?: { errors?: Record<string, string> } }).body?.errors ?? {};

/**
 * /api-tokens: the signed-in user's API tokens for scripts (`Authorization: Bearer nmt_…`). A new token's secret is
 * shown once, right after it is made; the server keeps only its hash.
 */
export const ApiTokensPage = () => {
    const notify = useNotify();
    const [tokens, setTokens] = useState<ApiToken[] | null>(null);
    const [adding, setAdding] = useState(false);
    const [form, setForm] = useState({ name: '', scope: 'read', expires_at: '' });
    const [errors, setErrors] = useState<Record<string, string>>({});
    const [secret, setSecret] = useState<string | null>(null);

    const [version, setVersion] = useState(0);
    const load = () => setVersion((v) => v + 1);
    useEffect(() => {
        void version;
        authRequest<ApiToken[]>('/tokens')
            .then((res) => setTokens(res.json ?? []))
            .catch((error: unknown) => {
                notify(withServerMessage('Failed to load API tokens', error), { type: 'error' });
                setTokens([]);
            });
    }, [version, notify]);

    const create = async () => {
        setErrors({});
        try {
            const body = {
                name: form.name,
                scope: form.scope,
                ...(form.expires_at ? { expires_at: new Date(form.expires_at).toISOString() } : {}),
            };
            const res = await authRequest<{ token: string }>('/tokens', { method: 'POST', body });
            setAdding(false);
            setForm({ name: '', scope: 'read', expires_at: '' });
            setSecret(res.json?.token ?? null);
            load();
        } catch (error) {
            setErrors(fieldErrors(error));
            notify(withServerMessage('Failed to create API token', error), { type: 'error' });
        }
    };

    const remove = async (token: ApiToken) => {
        try {
            await authRequest(`/tokens/${token.id}`, { method: 'DELETE' });
            notify(`API token "${token.name}" deleted`, { type: 'success' });
            load();
        } catch (error) {
            notify(withServerMessage('Failed to delete API token', error), { type: 'error' });
        }
    };

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
                    <Table size="small">
                        <TableHead>
                            <TableRow>
                                <TableCell>Name</TableCell>
                                <TableCell>Scope</TableCell>
                                <TableCell>Expires</TableCell>
                                <TableCell>Last used</TableCell>
                                <TableCell>Created</TableCell>
                                <TableCell />
                            </TableRow>
                        </TableHead>
                        <TableBody>
                            {tokens.map((t) => (
                                <TableRow key={t.id}>
                                    <TableCell>{t.name}</TableCell>
                                    <TableCell>{t.scope}</TableCell>
                                    <TableCell>{when(t.expires_at)}</TableCell>
                                    <TableCell>{when(t.last_used_at)}</TableCell>
                                    <TableCell>{when(t.created_at)}</TableCell>
                                    <TableCell align="right">
                                        <IconButton
                                            aria-label={`Delete API token ${t.name}`}
                                            onClick={() => void remove(t)}
                                        >
                                            <DeleteIcon />
                                        </IconButton>
                                    </TableCell>
                                </TableRow>
                            ))}
                        </TableBody>
                    </Table>
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
                    <Button variant="contained" onClick={() => void create()}>
                        Create
                    </Button>
                </DialogActions>
            </Dialog>
        </Box>
    );
};
