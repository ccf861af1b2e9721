import { Link } from '@mui/material';
import { DataTable } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';

import type { Monitor } from '../../../common/entities';
import { MONITOR_CATALOGUE } from '../../../common/monitor-types';
import { Uptime30d } from '../../custom/history/Uptime30d';
import { ActiveChip } from '../../ui/ActiveChip';
import { formatDateTime } from '../../ui/format';
import { RowActions } from '../../ui/RowActions';
import { SilencedChip } from '../../custom/silences/SilencedChip';
import { MonitorHealthChip } from './HealthBadge';
import { LocalDataTable } from '../../ui/LocalDataTable';

export interface MonitorTableProps {
    monitors: Monitor[];
    /** Names of servers the rows may point at, for monitors that carry only `server_id`. */
    servers?: { id: number; name: string }[];
    /** Without onEdit and onDelete (read-only users) there is no Actions column. */
    onEdit?: (monitor: Monitor) => void;
    onDelete?: (monitor: Monitor) => void;
    emptyText?: string;
}

const serverName = (monitor: Monitor, servers: { id: number; name: string }[]) =>
    monitor.server?.name ?? servers.find((s) => s.id === monitor.server_id)?.name ?? 'None';

/** Name (a link to the monitor's page, with its 30-day uptime), Type, Server, Status (Healthy/Warning/Error), Active, Last Check ('Never') and Actions. */
export const MonitorTable = ({
    monitors,
    servers = [],
    onEdit,
    onDelete,
    emptyText = 'No monitors configured yet',
}: MonitorTableProps) => (
    <LocalDataTable<Monitor> resource="monitors" data={monitors} aria-label="Monitors" emptyText={emptyText}>
        <DataTable.Col
            source="name"
            label="Name"
            disableSort
            render={(monitor: Monitor) => (
                <>
                    <Link component={RouterLink} to={`/monitor/${monitor.id}`}>
                        {monitor.name}
                    </Link>
                    <Uptime30d record={monitor} />
                </>
            )}
        />
        <DataTable.Col
            source="type"
            label="Type"
            disableSort
            render={(monitor: Monitor) => MONITOR_CATALOGUE[monitor.type]?.label ?? monitor.type}
        />
        <DataTable.Col label="Server" render={(monitor: Monitor) => serverName(monitor, servers)} />
        <DataTable.Col
            label="Status"
            render={(monitor: Monitor) => (
                <>
                    <MonitorHealthChip monitor={monitor} /> <SilencedChip monitor={monitor} />
                </>
            )}
        />
        <DataTable.Col
            source="is_enabled"
            label="Active"
            disableSort
            render={(monitor: Monitor) => <ActiveChip active={monitor.is_enabled} />}
        />
        <DataTable.Col
            source="last_check"
            label="Last Check"
            disableSort
            render={(monitor: Monitor) => (monitor.last_check ? formatDateTime(monitor.last_check) : 'Never')}
        />
        {(onEdit || onDelete) && (
            <DataTable.Col
                label="Actions"
                align="right"
                render={(monitor: Monitor) => (
                    <RowActions
                        noun="monitor"
                        name={monitor.name}
                        onEdit={onEdit && (() => onEdit(monitor))}
                        onDelete={onDelete && (() => onDelete(monitor))}
                    />
                )}
            />
        )}
    </LocalDataTable>
);
