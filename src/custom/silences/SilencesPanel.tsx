import {
    Box,
    Button,
    Card,
    CardContent,
    Chip,
    Stack,
    Table,
    TableBody,
    TableCell,
    TableHead,
    TableRow,
    Typography,
} from '@mui/material';
import { useState } from 'react';
import { useDelete, useGetList, useNotify } from 'react-admin';

import type { Server } from '../../../common/entities';
import type { MaintenanceWindow, Silence } from '../../../common/silences';
import { formatDateTime, withServerMessage } from '../ui/format';
import { MaintenanceWindowDialog } from './MaintenanceWindowDialog';
import { SilenceDialog } from './SilenceDialog';
import { targetLabel, windowWhen } from './windowText';

const ALL = { page: 1, perPage: 1000 };

export interface SilencesPanelProps {
    configurationId: number;
    configurationName: string;
    servers: Pick<Server, 'id' | 'name'>[];
    canWrite: boolean;
}

/**
 * The configuration detail's silences (of the configuration, its servers and its monitors) and maintenance windows,
 * with Add and End (Delete for a window) for admins.
 */
export const SilencesPanel = ({ configurationId, configurationName, servers, canWrite }: SilencesPanelProps) => {
    const notify = useNotify();
    const filter = { 'target.configuration_id': configurationId };
    const silences = useGetList<Silence>('silences', {
        filter,
        pagination: ALL,
        sort: { field: 'ends_at', order: 'ASC' },
    });
    const windows = useGetList<MaintenanceWindow>('maintenance-windows', {
        filter,
        pagination: ALL,
        sort: { field: 'next_starts_at', order: 'ASC' },
    });
    const [remove] = useDelete();
    const [silencing, setSilencing] = useState(false);
    const [planning, setPlanning] = useState(false);

    const end = (resource: 'silences' | 'maintenance-windows', record: Silence | MaintenanceWindow, done: string) =>
        remove(
            resource,
            { id: record.id, previousData: record },
            {
                onSuccess: () => notify(done, { type: 'success' }),
                onError: (error) =>
                    notify(withServerMessage(`Failed: ${done.toLowerCase()}`, error), { type: 'error' }),
            }
        );

    return (
        <Card variant="outlined">
            <CardContent>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 1, mb: 1 }}>
                    <Typography variant="h6" component="h2">
                        Silences and maintenance windows
                    </Typography>
                    {canWrite && (
                        <Stack direction="row" spacing={1}>
                            <Button variant="outlined" onClick={() => setSilencing(true)}>
                                Add silence
                            </Button>
                            <Button variant="outlined" onClick={() => setPlanning(true)}>
                                Add window
                            </Button>
                        </Stack>
                    )}
                </Box>
                {silences.data?.length === 0 && windows.data?.length === 0 && (
                    <Typography color="text.secondary">No silences or maintenance windows</Typography>
                )}
                {Boolean(silences.data?.length) && (
                    <Box sx={{ overflowX: 'auto', mb: 2 }}>
                        <Table size="small" aria-label="Silences">
                            <TableHead>
                                <TableRow>
                                    <TableCell>Silenced</TableCell>
                                    <TableCell>Until</TableCell>
                                    <TableCell>Reason</TableCell>
                                    <TableCell>By</TableCell>
                                    {canWrite && <TableCell />}
                                </TableRow>
                            </TableHead>
                            <TableBody>
                                {silences.data?.map((s) => (
                                    <TableRow key={s.id}>
                                        <TableCell>
                                            {targetLabel(s.target)}{' '}
                                            {!s.active && (
                                                <Chip size="small" label={`From ${formatDateTime(s.starts_at)}`} />
                                            )}
                                        </TableCell>
                                        <TableCell>{formatDateTime(s.ends_at)}</TableCell>
                                        <TableCell sx={{ overflowWrap: 'anywhere' }}>{s.reason}</TableCell>
                                        <TableCell>{s.created_by}</TableCell>
                                        {canWrite && (
                                            <TableCell align="right">
                                                <Button
                                                    size="small"
                                                    aria-label={`End silence of ${targetLabel(s.target)}`}
                                                    onClick={() => end('silences', s, 'Silence ended')}
                                                >
                                                    End
                                                </Button>
                                            </TableCell>
                                        )}
                                    </TableRow>
                                ))}
                            </TableBody>
                        </Table>
                    </Box>
                )}
                {Boolean(windows.data?.length) && (
                    <Box sx={{ overflowX: 'auto' }}>
                        <Table size="small" aria-label="Maintenance windows">
                            <TableHead>
                                <TableRow>
                                    <TableCell>Maintenance of</TableCell>
                                    <TableCell>When</TableCell>
                                    <TableCell>Reason</TableCell>
                                    {canWrite && <TableCell />}
                                </TableRow>
                            </TableHead>
                            <TableBody>
                                {windows.data?.map((w) => (
                                    <TableRow key={w.id}>
                                        <TableCell>
                                            {targetLabel(w.target)}{' '}
                                            {w.active && <Chip size="small" color="warning" label="On now" />}
                                        </TableCell>
                                        <TableCell>{windowWhen(w)}</TableCell>
                                        <TableCell sx={{ overflowWrap: 'anywhere' }}>{w.reason}</TableCell>
                                        {canWrite && (
                                            <TableCell align="right">
                                                <Button
                                                    size="small"
                                                    color="error"
                                                    aria-label={`Delete maintenance window of ${targetLabel(w.target)}`}
                                                    onClick={() =>
                                                        end('maintenance-windows', w, 'Maintenance window deleted')
                                                    }
                                                >
                                                    Delete
                                                </Button>
                                            </TableCell>
                                        )}
                                    </TableRow>
                                ))}
                            </TableBody>
                        </Table>
                    </Box>
                )}
            </CardContent>
            {canWrite && (
                <>
                    <SilenceDialog
                        open={silencing}
                        target={{ configuration_id: configurationId }}
                        name={configurationName}
                        onClose={() => setSilencing(false)}
                    />
                    <MaintenanceWindowDialog
                        open={planning}
                        configurationId={configurationId}
                        servers={servers}
                        onClose={() => setPlanning(false)}
                    />
                </>
            )}
        </Card>
    );
};
