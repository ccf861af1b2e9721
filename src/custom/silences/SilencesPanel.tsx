import { Box, Button, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Confirm, DataTable, useDataProvider, useDelete, useGetList, useNotify, useRefresh } from 'react-admin';

import type { Server } from '../../../common/entities';
import type { MaintenanceWindow, Silence } from '../../../common/silences';
import { formatDateTime, withServerMessage } from '../../ui/format';
import { MaintenanceWindowDialog } from './MaintenanceWindowDialog';
import { SilenceDialog } from './SilenceDialog';
import { targetLabel, windowWhen } from './windowText';
import { LocalDataTable } from '../../ui/LocalDataTable';

const ALL = { page: 1, perPage: 1000 };

export interface SilencesPanelProps {
    configurationId: number;
    configurationName: string;
    servers: Pick<Server, 'id' | 'name'>[];
    canWrite: boolean;
}

/**
 * The configuration detail's silences (of the configuration, its servers and its monitors) and maintenance windows,
 * with Add and End for admins (a window also has Delete; End, for one on now, asks first).
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
    const [ending, setEnding] = useState<MaintenanceWindow | null>(null);
    const [endingBusy, setEndingBusy] = useState(false);
    const dataProvider = useDataProvider();
    const refresh = useRefresh();

    // POST /maintenance-windows/{id}/end: the window's end becomes now, and what it held back is sent.
    const endWindow = async (w: MaintenanceWindow) => {
        setEndingBusy(true);
        try {
            await dataProvider.create(`maintenance-windows/${w.id}/end`, { data: {} });
            notify('Maintenance window ended', { type: 'success' });
            setEnding(null);
            refresh();
        } catch (error) {
            notify(withServerMessage('Failed to end maintenance window', error), { type: 'error' });
        } finally {
            setEndingBusy(false);
        }
    };

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
                        <LocalDataTable<Silence> resource="silences" data={silences.data} aria-label="Silences">
                            <DataTable.Col
                                label="Silenced"
                                render={(s: Silence) => (
                                    <>
                                        {targetLabel(s.target)}{' '}
                                        {!s.active && (
                                            <Chip size="small" label={`From ${formatDateTime(s.starts_at)}`} />
                                        )}
                                    </>
                                )}
                            />
                            <DataTable.Col label="Until" render={(s: Silence) => formatDateTime(s.ends_at)} />
                            <DataTable.Col
                                source="reason"
                                label="Reason"
                                disableSort
                                sx={{ overflowWrap: 'anywhere' }}
                            />
                            <DataTable.Col source="created_by" label="By" disableSort />
                            {canWrite && (
                                <DataTable.Col
                                    label=""
                                    align="right"
                                    render={(s: Silence) => (
                                        <Button
                                            size="small"
                                            aria-label={`End silence of ${targetLabel(s.target)}`}
                                            onClick={() => end('silences', s, 'Silence ended')}
                                        >
                                            End
                                        </Button>
                                    )}
                                />
                            )}
                        </LocalDataTable>
                    </Box>
                )}
                {Boolean(windows.data?.length) && (
                    <Box sx={{ overflowX: 'auto' }}>
                        <LocalDataTable<MaintenanceWindow>
                            resource="maintenance-windows"
                            data={windows.data}
                            aria-label="Maintenance windows"
                        >
                            <DataTable.Col
                                label="Maintenance of"
                                render={(w: MaintenanceWindow) => (
                                    <>
                                        {targetLabel(w.target)}{' '}
                                        {w.active && <Chip size="small" color="warning" label="On now" />}
                                    </>
                                )}
                            />
                            <DataTable.Col label="When" render={(w: MaintenanceWindow) => windowWhen(w)} />
                            <DataTable.Col
                                source="reason"
                                label="Reason"
                                disableSort
                                sx={{ overflowWrap: 'anywhere' }}
                            />
                            <DataTable.Col
                                label="Mutes"
                                render={(w: MaintenanceWindow) => (w.mutes === 'all' ? 'Everything' : 'Node health')}
                            />
                            {canWrite && (
                                <DataTable.Col
                                    label=""
                                    align="right"
                                    render={(w: MaintenanceWindow) => (
                                        <Stack direction="row" spacing={1} justifyContent="flex-end">
                                            {w.active && (
                                                <Button
                                                    size="small"
                                                    aria-label={`End maintenance window of ${targetLabel(w.target)}`}
                                                    onClick={() => setEnding(w)}
                                                >
                                                    End
                                                </Button>
                                            )}
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
                                        </Stack>
                                    )}
                                />
                            )}
                        </LocalDataTable>
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
                    <Confirm
                        isOpen={ending !== null}
                        loading={endingBusy}
                        title="End maintenance window"
                        content={`End the maintenance window of ${ending ? targetLabel(ending.target) : ''} now? Alerts it held back are sent at once.`}
                        confirm="End now"
                        confirmColor="warning"
                        onConfirm={() => ending && void endWindow(ending)}
                        onClose={() => setEnding(null)}
                    />
                </>
            )}
        </Card>
    );
};
