import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import VisibilityIcon from '@mui/icons-material/Visibility';
import {
    Box,
    Chip,
    IconButton,
    Link,
    Table,
    TableBody,
    TableCell,
    TableContainer,
    TableHead,
    TableRow,
    Tooltip,
    Typography,
} from '@mui/material';
import { Fragment } from 'react';
import { Link as RouterLink } from 'react-router-dom';

import { monitorHealth } from '../../../common/health';
import type { Monitor } from '../../../common/entities';
import { Uptime30d } from '../history/Uptime30d';
import { SilencedChip } from '../silences/SilencedChip';
import { OpenIncidentLink } from '../../resources/incidents/OpenIncidentLink';
import { formatDateTime } from '../ui/format';

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

/** A tab of the System Monitoring panel: failing or warning monitors, each with a way to its server. */
export const MonitorIssuesTable = ({ monitors, emptyText }: MonitorIssuesTableProps) => {
    if (monitors.length === 0) {
        return (
            <Box sx={{ py: 6, textAlign: 'center' }}>
                <CheckCircleIcon color="success" sx={{ fontSize: 48 }} />
                <Typography variant="h6">{emptyText}</Typography>
                <Typography color="text.secondary">All systems are running smoothly</Typography>
            </Box>
        );
    }
    return (
        <TableContainer>
            <Table size="small">
                <TableHead>
                    <TableRow>
                        <TableCell>Status</TableCell>
                        <TableCell>Configuration</TableCell>
                        <TableCell>Monitor</TableCell>
                        <TableCell>Server</TableCell>
                        <TableCell>Message</TableCell>
                        <TableCell>Last Check</TableCell>
                        <TableCell align="right">Actions</TableCell>
                    </TableRow>
                </TableHead>
                <TableBody>
                    {groupByHalt(monitors).map((group) => (
                        <Fragment key={group[0]?.chain_halt?.id ?? group[0]?.id}>
                            {group[0]?.chain_halt && <ChainHaltRow monitors={group} />}
                            {group.map((monitor) => (
                                <IssueRow key={monitor.id} monitor={monitor} />
                            ))}
                        </Fragment>
                    ))}
                </TableBody>
            </Table>
        </TableContainer>
    );
};

const IssueRow = ({ monitor }: { monitor: Monitor }) => {
    const chip = HEALTH_CHIP[monitorHealth(monitor)];
    return (
        <TableRow key={monitor.id}>
            <TableCell>
                <Chip size="small" label={chip.label} color={chip.color} /> <SilencedChip monitor={monitor} />
            </TableCell>
            <TableCell>
                {monitor.configuration ? (
                    <Link component={RouterLink} to={`/configurations/${monitor.configuration.id}`}>
                        {monitor.configuration.name}
                    </Link>
                ) : (
                    'N/A'
                )}
            </TableCell>
            <TableCell>
                <Link component={RouterLink} to={`/monitor/${monitor.id}`}>
                    {monitor.name}
                </Link>
                <Uptime30d record={monitor} />
            </TableCell>
            <TableCell>{monitor.server?.name ?? 'N/A'}</TableCell>
            <TableCell sx={{ maxWidth: 360, overflowWrap: 'anywhere' }}>
                {monitor.last_error || 'No error message'}
                {monitor.incident && !monitor.chain_halt && (
                    <Box component="span" sx={{ display: 'block' }}>
                        <OpenIncidentLink incident={monitor.incident} />
                    </Box>
                )}
            </TableCell>
            <TableCell>{formatDateTime(monitor.last_check)}</TableCell>
            <TableCell align="right">
                {monitor.server ? (
                    <Tooltip title="View server">
                        <IconButton
                            component={RouterLink}
                            to={`/servers/${monitor.server.id}`}
                            aria-label={`View server ${monitor.server.name}`}
                            size="small"
                        >
                            <VisibilityIcon fontSize="small" />
                        </IconButton>
                    </Tooltip>
                ) : null}
            </TableCell>
        </TableRow>
    );
};
