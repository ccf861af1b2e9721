import DownloadIcon from '@mui/icons-material/Download';
import UploadIcon from '@mui/icons-material/Upload';
import {
    Alert,
    Box,
    Button,
    Dialog,
    DialogActions,
    DialogContent,
    DialogTitle,
    List,
    ListItem,
    ListItemText,
    Typography,
} from '@mui/material';
import { useState } from 'react';
import { useNotify } from 'react-admin';

import { apiUrl, messageOf } from '../../providers/httpClient';
import { authRequest, getAccessToken } from '../../providers/session';

interface PlanItem {
    action: 'create' | 'update' | 'rename' | 'unchanged' | 'delete';
    kind: string;
    path: string;
    name: string;
    fields?: string[];
    /** A rename: the name it had. */
    was?: string;
}
interface Plan {
    summary: Record<PlanItem['action'], number>;
    items: PlanItem[];
}

const errorsOf = (error: unknown): Record<string, string> => {
    const body = (error as { body?: { errors?: Record<string, string> } }).body;
    return body?.errors ?? {};
};

/**
 * Export and Import of the configurations as a YAML document (configuration as code). Import always shows the
 * server's dry-run plan first and applies it only on confirmation. A super admin works on the company chosen in
 * the filter bar: until one is chosen the buttons are disabled and say so.
 */
export const ConfigurationCodeButtons = ({
    canWrite,
    companyId,
    needsCompany,
    onImported,
}: {
    canWrite: boolean;
    /** Required for a super admin; '' for everyone else. */
    companyId: string;
    /** A super admin who has not chosen a company yet. */
    needsCompany: boolean;
    onImported: () => void;
}) => {
    const notify = useNotify();
    const [document, setDocument] = useState<string | null>(null);
    const [plan, setPlan] = useState<Plan | null>(null);
    const [problems, setProblems] = useState<{ message: string; errors: Record<string, string> } | null>(null);
    const [busy, setBusy] = useState(false);
    const query = companyId ? { company_id: companyId } : undefined;

    const download = async () => {
        const response = await fetch(apiUrl('/export', { format: 'yaml', ...query }), {
            headers: { Authorization: `Bearer ${await getAccessToken()}` },
        }).catch(() => null);
        if (!response?.ok) {
            const body = await response?.json().catch(() => null);
            notify(`Failed to export configurations${messageOf(body) ? `: ${messageOf(body)}` : ''}`, {
                type: 'error',
            });
            return;
        }
        const link = window.document.createElement('a');
        link.href = URL.createObjectURL(await response.blob());
        link.download = `node-monitor-configurations.yaml`;
        link.click();
        URL.revokeObjectURL(link.href);
    };

    const send = async (text: string, dryRun: boolean) => {
        setBusy(true);
        try {
            const res = await authRequest<Plan>('/import', {
                method: 'POST',
                query: { dry_run: String(dryRun), ...query },
                raw: { text, type: 'application/yaml' },
            });
            return res.json;
        } catch (error) {
            setProblems({ message: (error as Error).message, errors: errorsOf(error) });
            return null;
        } finally {
            setBusy(false);
        }
    };

    const choose = async (file: File | undefined) => {
        if (!file) return;
        const text = await file.text();
        setDocument(text);
        setProblems(null);
        setPlan(await send(text, true));
    };

    const close = () => {
        setDocument(null);
        setPlan(null);
        setProblems(null);
    };

    const apply = async () => {
        if (document === null) return;
        const done = await send(document, false);
        if (!done) return;
        const { create, update, rename, delete: deleted } = done.summary;
        notify(
            `Import applied: ${create} created, ${update} updated, ${deleted} deleted${rename ? `, ${rename} renamed` : ''}`,
            { type: 'success' }
        );
        close();
        onImported();
    };

    const changes = plan?.items.filter((i) => i.action !== 'unchanged') ?? [];
    return (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            {needsCompany && (
                <Typography variant="body2" color="text.secondary" id="configuration-code-hint">
                    Choose a company to export or import its configurations
                </Typography>
            )}
            <Button
                startIcon={<DownloadIcon />}
                onClick={() => void download()}
                disabled={needsCompany}
                aria-describedby={needsCompany ? 'configuration-code-hint' : undefined}
            >
                Export
            </Button>
            {canWrite && (
                <Button component="label" startIcon={<UploadIcon />} disabled={needsCompany}>
                    Import
                    <input
                        type="file"
                        hidden
                        accept=".yaml,.yml,.json,application/yaml,application/json"
                        aria-label="Configuration document to import"
                        disabled={needsCompany}
                        onChange={(e) => {
                            void choose(e.target.files?.[0]);
                            e.target.value = '';
                        }}
                    />
                </Button>
            )}
            <Dialog open={document !== null} onClose={close} fullWidth maxWidth="sm">
                <DialogTitle>Import configurations</DialogTitle>
                <DialogContent>
                    {problems && (
                        <Alert severity="error" sx={{ mb: 2 }}>
                            {problems.message}
                            <List dense>
                                {Object.entries(problems.errors).map(([at, why]) => (
                                    <ListItem key={at} disableGutters>
                                        <ListItemText primary={at} secondary={why} />
                                    </ListItem>
                                ))}
                            </List>
                        </Alert>
                    )}
                    {plan && (
                        <>
                            <Typography>
                                {`${plan.summary.create} to create, ${plan.summary.update} to update, ${plan.summary.delete} to delete, ${plan.summary.unchanged} unchanged${plan.summary.rename ? `, ${plan.summary.rename} to rename` : ''}`}
                            </Typography>
                            {plan.summary.delete > 0 && (
                                // Deleting takes the rows' history and incidents with it: said before Apply.
                                <Typography color="error" sx={{ fontWeight: 'bold' }}>
                                    {`${plan.summary.delete} to delete, with their history`}
                                </Typography>
                            )}
                            <List dense>
                                {changes.map((i) => (
                                    <ListItem key={`${i.action}-${i.kind}-${i.path}-${i.name}`} disableGutters>
                                        <ListItemText
                                            primary={
                                                i.action === 'rename'
                                                    ? `rename ${i.kind.replace('_', ' ')} "${i.was}" to "${i.name}"`
                                                    : `${i.action} ${i.kind.replace('_', ' ')} "${i.name}"`
                                            }
                                            secondary={i.fields ? `changes ${i.fields.join(', ')}` : i.path}
                                            slotProps={
                                                i.action === 'delete'
                                                    ? { primary: { color: 'error' }, secondary: { color: 'error' } }
                                                    : undefined
                                            }
                                        />
                                    </ListItem>
                                ))}
                            </List>
                        </>
                    )}
                </DialogContent>
                <DialogActions>
                    <Button onClick={close}>Cancel</Button>
                    <Button
                        variant="contained"
                        disabled={busy || !plan || changes.length === 0}
                        onClick={() => void apply()}
                    >
                        Apply
                    </Button>
                </DialogActions>
            </Dialog>
        </Box>
    );
};
