import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { Box, Chip, Link, TableCell, TableRow, Typography } from '@mui/material';
import { createContext, useContext, useMemo } from 'react';
import {
    DataTable,
    DataTableBody,
    type DataTableBodyProps,
    DataTableRow,
    type DataTableRowProps,
    useRecordContext,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';

import { monitorHealth } from '../../../common/health';
import type { Monitor } from '../../../common/entities';
import { Uptime30d } from '../history/Uptime30d';
import { SilencedChip } from '../silences/SilencedChip';
import { OpenIncidentLink } from '../../resources/incidents/OpenIncidentLink';
import { formatDateTime } from '../ui/format';
import { RowActions } from '../ui/RowActions';
import { LocalDataTable } from '../ui/LocalDataTable';

export interface MonitorIssuesTableProps {
    monitors: Monitor[];
    /** 'No critical issues found' or 'No warnings found'. */
    emptyText: string;
}

const HEALTH_CHIP = {
    error: { label: 'Error', color: 'error' },
    warning: { label: 'Warning', color: 'warning' },
    healthy: { label: 'Healthy', color: 'success' },
} as const;

/**
 * The rows in groups: the monitors of one chain halt together (at the place of the first of them), each other
 * monitor a group of its own.
 */
function groupByHalt(monitors: Monitor[]): Monitor[][] {
    const groups: Monitor[][] = [];
    const halts = new Map<string, Monitor[]>();
    for (const monitor of monitors) {
        const id = monitor.chain_halt?.id;
        const group = id ? halts.get(id) : undefined;
        if (group) group.push(monitor);
        else {
            const created = [monitor];
            groups.push(created);
            if (id) halts.set(id, created);
        }
    }
    return groups;
}

const COLUMNS = 7;

/** One line over the rows of a chain halt: they are one fact (the chain stopped), not separate node failures. */
const ChainHaltRow = ({ monitors }: { monitors: Monitor[] }) => {
    const first = monitors[0];
    const halt = first?.chain_halt;
    if (!halt) return null;
    const label = `Chain halt: ${first.configuration?.name ?? 'the chain'} stands at height ${halt.height} since ${formatDateTime(halt.since)} (${monitors.length} ${monitors.length === 1 ? 'node' : 'nodes'})`;
    return (
        <TableRow aria-label={label} sx={{ bgcolor: 'action.hover' }}>
            <TableCell colSpan={COLUMNS}>
                <Chip size="small" color="error" variant="outlined" label="Chain halt" sx={{ mr: 1 }} />
                {label}
                {first.incident?.id === halt.id && (
                    <>
                        {' · '}
                        <OpenIncidentLink incident={first.incident} />
                    </>
                )}
            </TableCell>
        </TableRow>
    );
};

/** The rows of each chain halt, by halt id, for the line above them. */
const HaltGroups = createContext<Map<string, Monitor[]>>(new Map());

/** A monitor's row, preceded by its chain halt's line when it is the first row of that halt. */
const IssueRow = (props: DataTableRowProps) => {
    const monitor = useRecordContext<Monitor>();
    const group = useContext(HaltGroups).get(monitor?.chain_halt?.id ?? '');
    return (
        <>
            {group && group[0] === monitor && <ChainHaltRow monitors={group} />}
            <DataTableRow {...props} />
        </>
    );
};

const IssuesBody = (props: DataTableBodyProps) => <DataTableBody {...props} row={IssueRow} />;

/** A tab of the System Monitoring panel: failing or warning monitors, each with a way to its server. */
export const MonitorIssuesTable = ({ monitors, emptyText }: MonitorIssuesTableProps) => {
    const groups = useMemo(() => groupByHalt(monitors), [monitors]);
    const halts = useMemo(
        () => new Map(groups.flatMap((group) => (group[0]?.chain_halt ? [[group[0].chain_halt.id, group]] : []))),
        [groups]
    );
    const rows = useMemo(() => groups.flat(), [groups]);
    return (
        <HaltGroups.Provider value={halts}>
            <LocalDataTable<Monitor>
                resource="monitors"
                data={rows}
                body={IssuesBody}
                empty={
                    <Box sx={{ py: 6, textAlign: 'center' }}>
                        <CheckCircleIcon color="success" sx={{ fontSize: 48 }} />
                        <Typography variant="h6" component="p">
                            {emptyText}
                        </Typography>
                        <Typography color="text.secondary">All systems are running smoothly</Typography>
                    </Box>
                }
            >
                <DataTable.Col label="Status" render={(monitor: Monitor) => <StatusCell monitor={monitor} />} />
                <DataTable.Col
                    label="Configuration"
                    render={(monitor: Monitor) =>
                        monitor.configuration ? (
                            <Link component={RouterLink} to={`/configurations/${monitor.configuration.id}`}>
                                {monitor.configuration.name}
                            </Link>
                        ) : (
                            'N/A'
                        )
                    }
                />
                <DataTable.Col
                    label="Monitor"
                    render={(monitor: Monitor) => (
                        <>
                            <Link component={RouterLink} to={`/monitor/${monitor.id}`}>
                                {monitor.name}
                            </Link>
                            <Uptime30d record={monitor} />
                        </>
                    )}
                />
                <DataTable.Col label="Server" render={(monitor: Monitor) => monitor.server?.name ?? 'N/A'} />
                <DataTable.Col
                    label="Message"
                    cellSx={() => ({ maxWidth: 360, overflowWrap: 'anywhere' })}
                    render={(monitor: Monitor) => (
                        <>
                            {monitor.last_error || 'No error message'}
                            {monitor.incident && !monitor.chain_halt && (
                                <Box component="span" sx={{ display: 'block' }}>
                                    <OpenIncidentLink incident={monitor.incident} />
                                </Box>
                            )}
                        </>
                    )}
                />
                <DataTable.Col label="Last Check" render={(monitor: Monitor) => formatDateTime(monitor.last_check)} />
                <DataTable.Col
                    label="Actions"
                    align="right"
                    render={(monitor: Monitor) =>
                        monitor.server ? (
                            <RowActions
                                noun="server"
                                name={monitor.server.name}
                                viewTo={`/servers/${monitor.server.id}`}
                            />
                        ) : null
                    }
                />
            </LocalDataTable>
        </HaltGroups.Provider>
    );
};

const StatusCell = ({ monitor }: { monitor: Monitor }) => {
    const chip = HEALTH_CHIP[monitorHealth(monitor)];
    return (
        <>
            <Chip size="small" label={chip.label} color={chip.color} /> <SilencedChip monitor={monitor} />
        </>
    );
};
