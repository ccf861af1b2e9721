import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { Box, TableCell, TableRow, Typography, useMediaQuery, useTheme } from '@mui/material';
import { createContext, useContext, useMemo } from 'react';
import {
    DataTable,
    DataTableBody,
    type DataTableBodyProps,
    DataTableRow,
    type DataTableRowProps,
    useRecordContext,
} from 'react-admin';

import type { Monitor } from '../../../common/entities';
import { LocalDataTable } from '../../ui/LocalDataTable';
import {
    ChainHalt,
    ConfigurationLink,
    chainHaltLabel,
    groupByHalt,
    IssueMessage,
    lastCheck,
    MonitorLink,
    MonitorStatus,
    ServerAction,
} from './issueParts';
import { MonitorIssueStack } from './MonitorIssueStack';

export interface MonitorIssuesTableProps {
    monitors: Monitor[];
    /** 'No critical issues found' or 'No warnings found'. */
    emptyText: string;
}

const COLUMNS = 7;

const ChainHaltRow = ({ monitors }: { monitors: Monitor[] }) => {
    const label = chainHaltLabel(monitors);
    if (!label) return null;
    return (
        <TableRow aria-label={label} sx={{ bgcolor: 'action.hover' }}>
            <TableCell colSpan={COLUMNS}>
                <ChainHalt monitors={monitors} label={label} />
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

const Empty = ({ text }: { text: string }) => (
    <Box sx={{ py: 6, textAlign: 'center' }}>
        <CheckCircleIcon color="success" sx={{ fontSize: 48 }} />
        <Typography variant="h6" component="p">
            {text}
        </Typography>
        <Typography color="text.secondary">All systems are running smoothly</Typography>
    </Box>
);

/**
 * A tab of the System Monitoring panel: failing or warning monitors, each with a way to its server. On a phone the
 * seven columns do not fit, so each monitor is a stacked row that starts with its message.
 */
export const MonitorIssuesTable = ({ monitors, emptyText }: MonitorIssuesTableProps) => {
    const groups = useMemo(() => groupByHalt(monitors), [monitors]);
    const halts = useMemo(
        () => new Map(groups.flatMap((group) => (group[0]?.chain_halt ? [[group[0].chain_halt.id, group]] : []))),
        [groups]
    );
    const rows = useMemo(() => groups.flat(), [groups]);
    const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
    if (phone) return monitors.length === 0 ? <Empty text={emptyText} /> : <MonitorIssueStack groups={groups} />;
    return (
        <HaltGroups.Provider value={halts}>
            <LocalDataTable<Monitor>
                resource="monitors"
                data={rows}
                body={IssuesBody}
                empty={<Empty text={emptyText} />}
            >
                <DataTable.Col label="Status" render={(monitor: Monitor) => <MonitorStatus monitor={monitor} />} />
                <DataTable.Col
                    label="Configuration"
                    render={(monitor: Monitor) => <ConfigurationLink monitor={monitor} />}
                />
                <DataTable.Col label="Monitor" render={(monitor: Monitor) => <MonitorLink monitor={monitor} />} />
                <DataTable.Col label="Server" render={(monitor: Monitor) => monitor.server?.name ?? 'N/A'} />
                <DataTable.Col
                    label="Message"
                    cellSx={() => ({ maxWidth: 360, overflowWrap: 'anywhere' })}
                    render={(monitor: Monitor) => <IssueMessage monitor={monitor} />}
                />
                <DataTable.Col label="Last Check" render={lastCheck} />
                <DataTable.Col
                    label="Actions"
                    align="right"
                    render={(monitor: Monitor) => <ServerAction monitor={monitor} />}
                />
            </LocalDataTable>
        </HaltGroups.Provider>
    );
};
