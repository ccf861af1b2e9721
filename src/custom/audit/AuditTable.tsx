import {
    Box,
    Card,
    Link,
    Stack,
    Table,
    TableBody,
    TableCell,
    TableContainer,
    TableHead,
    TablePagination,
    TableRow,
    Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Identifier } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';

import type { AuditEntry } from '../../../common/entities';
import type { AuditTextFilter } from '../../providers/customMethods';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { REFRESH_MS } from '../network-status/metricsQuery';
import { formatDateTime } from '../ui/format';

/** The audit list is bounded: the latest 100 entries, paged. */
export const AUDIT_LIMIT = 100;
const PAGE_SIZES = [10, 25, 50, 100];

/** Object cell: the configuration, server and/or monitor, each as a link. */
const AuditObject = ({ entry }: { entry: AuditEntry }) => {
    const objects = [
        entry.configuration && {
            kind: 'Configuration',
            name: entry.configuration.name,
            to: `/configurations/${entry.configuration.id}`,
        },
        entry.server && { kind: 'Server', name: entry.server.name, to: `/servers/${entry.server.id}` },
        entry.monitor && { kind: 'Monitor', name: entry.monitor.name, to: `/monitor/${entry.monitor.id}` },
    ].filter((object) => !!object);
    if (objects.length === 0) return <>N/A</>;
    return (
        <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {objects.map((object) => (
                <Typography key={object.kind} variant="body2">
                    <Typography component="span" variant="caption" color="text.secondary">
                        {object.kind}:{' '}
                    </Typography>
                    <Link component={RouterLink} to={object.to}>
                        {object.name}
                    </Link>
                </Typography>
            ))}
        </Stack>
    );
};

export interface AuditTableProps {
    /** Narrows the list to one monitor's history. */
    monitorId?: Identifier;
    /** The audit page's filters. */
    text?: AuditTextFilter;
    emptyText?: string;
}

/** Audit entries of the caller's company, newest first; a failed fetch fails quietly (spec §8) as an empty list. */
export const AuditTable = ({ monitorId, text, emptyText = 'No audit entries found' }: AuditTableProps) => {
    const dataProvider = useNodeMonitorDataProvider();
    const [page, setPage] = useState(0);
    // A changed filter starts again at the first page.
    const filterKey = JSON.stringify(text ?? {});
    const [seenFilter, setSeenFilter] = useState(filterKey);
    if (seenFilter !== filterKey) {
        setSeenFilter(filterKey);
        setPage(0);
    }
    const [perPage, setPerPage] = useState(25);
    const start = page * perPage;
    const end = Math.min(start + perPage, AUDIT_LIMIT) - 1;
    const { data, isPending } = useQuery({
        queryKey: ['nodeMonitor', 'audit', monitorId ?? null, filterKey, start, end],
        queryFn: () =>
            dataProvider
                .getAuditPage({ start, end, monitorId, text })
                .catch(() => ({ data: [] as AuditEntry[], total: 0 })),
        placeholderData: keepPreviousData,
        // Only the first page follows new entries; a later page would shift under the reader.
        refetchInterval: page === 0 ? REFRESH_MS : false,
        retry: false,
    });
    const entries = data?.data ?? [];
    const total = Math.min(data?.total ?? 0, AUDIT_LIMIT);

    return (
        <TableContainer component={Card} variant="outlined">
            <Table size="small" aria-label="Audit">
                <TableHead>
                    <TableRow>
                        <TableCell>Object</TableCell>
                        <TableCell>Created At</TableCell>
                        <TableCell>Message</TableCell>
                    </TableRow>
                </TableHead>
                <TableBody>
                    {entries.map((entry) => (
                        <TableRow key={entry.id} sx={{ '& td': { py: 0.5 } }}>
                            <TableCell sx={{ minWidth: 200 }}>
                                <AuditObject entry={entry} />
                            </TableCell>
                            <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.created_at)}</TableCell>
                            <TableCell sx={{ overflowWrap: 'anywhere' }}>{entry.message}</TableCell>
                        </TableRow>
                    ))}
                    {!isPending && entries.length === 0 && (
                        <TableRow>
                            <TableCell colSpan={3}>
                                <Box sx={{ py: 3, textAlign: 'center' }}>
                                    <Typography color="text.secondary">{emptyText}</Typography>
                                </Box>
                            </TableCell>
                        </TableRow>
                    )}
                </TableBody>
            </Table>
            {total > 0 && (
                <TablePagination
                    component="div"
                    count={total}
                    page={page}
                    rowsPerPage={perPage}
                    rowsPerPageOptions={PAGE_SIZES}
                    onPageChange={(_, next) => setPage(next)}
                    onRowsPerPageChange={(event) => {
                        setPerPage(Number(event.target.value));
                        setPage(0);
                    }}
                />
            )}
        </TableContainer>
    );
};
