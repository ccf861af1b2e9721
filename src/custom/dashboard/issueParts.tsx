import { Box, Chip, Link } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';

import { monitorHealth } from '../../../common/health';
import type { Monitor } from '../../../common/entities';
import { OpenIncidentLink } from '../../resources/incidents/OpenIncidentLink';
import { Uptime30d } from '../history/Uptime30d';
import { SilencedChip } from '../silences/SilencedChip';
import { formatDateTime } from '../../ui/format';
import { RowActions } from '../../ui/RowActions';

/** What a dashboard row shows of a failing or warning monitor, shared by the table and the phone's stacked rows. */

const HEALTH_CHIP = {
    error: { label: 'Error', color: 'error' },
    warning: { label: 'Warning', color: 'warning' },
    healthy: { label: 'Healthy', color: 'success' },
} as const;

/**
 * The rows in groups: the monitors of one chain halt together (at the place of the first of them), each other
 * monitor a group of its own.
 */
export function groupByHalt(monitors: Monitor[]): Monitor[][] {
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

/** The line over the rows of a chain halt: they are one fact (the chain stopped), not separate node failures. */
export const chainHaltLabel = (monitors: Monitor[]) => {
    const first = monitors[0];
    const halt = first?.chain_halt;
    if (!halt) return null;
    return `Chain halt: ${first.configuration?.name ?? 'the chain'} stands at height ${halt.height} since ${formatDateTime(halt.since)} (${monitors.length} ${monitors.length === 1 ? 'node' : 'nodes'})`;
};

/** The chain halt line's content: its chip, its sentence and the halt's incident. */
export const ChainHalt = ({ monitors, label }: { monitors: Monitor[]; label: string }) => {
    const first = monitors[0];
    return (
        <>
            <Chip size="small" color="error" variant="outlined" label="Chain halt" sx={{ mr: 1 }} />
            {label}
            {first?.incident && first.incident.id === first.chain_halt?.id && (
                <>
                    {' · '}
                    <OpenIncidentLink incident={first.incident} />
                </>
            )}
        </>
    );
};

export const MonitorStatus = ({ monitor }: { monitor: Monitor }) => {
    const chip = HEALTH_CHIP[monitorHealth(monitor)];
    return (
        <>
            <Chip size="small" label={chip.label} color={chip.color} /> <SilencedChip monitor={monitor} />
        </>
    );
};

export const ConfigurationLink = ({ monitor }: { monitor: Monitor }) =>
    monitor.configuration ? (
        <Link component={RouterLink} to={`/configurations/${monitor.configuration.id}`}>
            {monitor.configuration.name}
        </Link>
    ) : (
        'N/A'
    );

export const MonitorLink = ({ monitor }: { monitor: Monitor }) => (
    <>
        <Link component={RouterLink} to={`/monitor/${monitor.id}`}>
            {monitor.name}
        </Link>
        <Uptime30d record={monitor} />
    </>
);

/** The message (or 'No error message'), then the monitor's own open incident; a chain halt's is on its line. */
export const IssueMessage = ({ monitor }: { monitor: Monitor }) => (
    <>
        {monitor.last_error || 'No error message'}
        {monitor.incident && !monitor.chain_halt && (
            <Box component="span" sx={{ display: 'block' }}>
                <OpenIncidentLink incident={monitor.incident} />
            </Box>
        )}
    </>
);

export const lastCheck = (monitor: Monitor) => formatDateTime(monitor.last_check);

export const ServerAction = ({ monitor }: { monitor: Monitor }) =>
    monitor.server ? (
        <RowActions noun="server" name={monitor.server.name} viewTo={`/servers/${monitor.server.id}`} />
    ) : null;
