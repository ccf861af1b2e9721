import { Card, Link, Stack, Typography } from '@mui/material';
import { useEffect } from 'react';
import {
    DataTable,
    type Identifier,
    ListBase,
    ListContextProvider,
    type ListControllerResult,
    Pagination,
    useListContext,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';

import type { AuditEntry } from '../../../common/entities';
import { EmptyTable } from '../../ui/EmptyTable';
import { REFRESH_MS } from '../network-status/metricsQuery';
import { formatUtc } from '../../ui/format';

/** The audit list is bounded: the latest 100 entries, paged. */
export const AUDIT_LIMIT = 100;
const PAGE_SIZES = [10, 25, 50, 100];

/** The audit page's filters: parts of the configuration, server and monitor names and of the message. */
export interface AuditTextFilter {
    configuration?: string;
    server?: string;
    monitor?: string;
    q?: string;
}

/** The filled-in filters, trimmed: an empty box filters nothing. */
const toFilter = (text: AuditTextFilter | undefined) => {
    const filter: Record<string, string> = {};
    for (const [key, value] of Object.entries(text ?? {})) if (value?.trim()) filter[key] = value.trim();
    return filter;
};

/**
 * Only the first page follows new entries; a later page would shift under the reader. react-admin's list query key
 * is `[resource, 'getList', {pagination, sort, filter, meta}]`.
 */
const followFirstPage = (query: { queryKey: readonly unknown[] }) =>
    (query.queryKey[2] as { pagination?: { page?: number } } | undefined)?.pagination?.page === 1 ? REFRESH_MS : false;

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

const HEADERS = ['Object', 'Created At', 'Message'];

export interface AuditTableProps {
    /** Narrows the list to one monitor's history. */
    monitorId?: Identifier;
    /** The audit page's filters. */
    text?: AuditTextFilter;
    emptyText?: string;
}

/** Audit entries of the caller's company, newest first; a failed fetch fails quietly (docs/spec.md §8) as an empty list. */
export const AuditTable = ({ monitorId, text, emptyText = 'No audit entries found' }: AuditTableProps) => (
    <ListBase<AuditEntry>
        resource="audit"
        filter={monitorId === undefined ? undefined : { monitor_id: Number(monitorId) }}
        filterDefaultValues={toFilter(text)}
        sort={{ field: 'id', order: 'DESC' }}
        perPage={25}
        disableSyncWithLocation
        storeKey={false}
        queryOptions={{ onError: () => undefined, refetchInterval: followFirstPage }}
    >
        <AuditRows text={text} emptyText={emptyText} />
    </ListBase>
);

const AuditRows = ({ text, emptyText }: Pick<AuditTableProps, 'text' | 'emptyText'>) => {
    const list = useListContext<AuditEntry>();
    const { setFilters } = list;
    // A changed filter asks again from the first page (setFilters goes back to page 1).
    const wanted = JSON.stringify(toFilter(text));
    const applied = JSON.stringify(list.filterValues ?? {});
    useEffect(() => {
        if (wanted !== applied) setFilters(JSON.parse(wanted));
    }, [wanted, applied, setFilters]);
    // A failure reads as no entries; beyond the latest 100 there is no page.
    const total = list.error ? 0 : list.total === undefined ? undefined : Math.min(list.total, AUDIT_LIMIT);
    const bounded = {
        ...list,
        data: list.error ? [] : list.data,
        total,
        hasNextPage: total !== undefined && list.page * list.perPage < total,
    } as ListControllerResult<AuditEntry>;
    return (
        <ListContextProvider value={bounded}>
            <Card variant="outlined">
                <DataTable<AuditEntry>
                    size="small"
                    aria-label="Audit"
                    rowClick={false}
                    bulkActionButtons={false}
                    sx={{ '& .RaDataTable-rowCell': { py: 0.5 } }}
                    empty={<EmptyTable label="Audit" columns={HEADERS} text={emptyText ?? ''} />}
                >
                    <DataTable.Col
                        label={HEADERS[0]}
                        cellSx={() => ({ minWidth: 200 })}
                        render={(entry: AuditEntry) => <AuditObject entry={entry} />}
                    />
                    <DataTable.Col
                        label={HEADERS[1]}
                        cellSx={() => ({ whiteSpace: 'nowrap' })}
                        render={(entry: AuditEntry) => formatUtc(entry.created_at)}
                    />
                    <DataTable.Col
                        label={HEADERS[2]}
                        cellSx={() => ({ overflowWrap: 'anywhere' })}
                        render={(entry: AuditEntry) => entry.message}
                    />
                </DataTable>
                <Pagination rowsPerPageOptions={PAGE_SIZES} />
            </Card>
        </ListContextProvider>
    );
};
