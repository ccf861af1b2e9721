import { Typography } from '@mui/material';
import { DataTable, type DataTableProps, type RaRecord } from 'react-admin';

export interface LocalDataTableProps<T extends RaRecord> extends Omit<DataTableProps<T>, 'data' | 'total'> {
    /** The rows, already in hand (a detail page's children, a query of the page's own). */
    data: T[] | undefined;
    /** The spec's empty text, shown in place of the table; `empty` for anything else. */
    emptyText?: string;
}

/**
 * A react-admin DataTable over rows the page already holds rather than a list it pages: small, no row click, no bulk
 * actions, and nothing pending (the page shows its own loading state).
 */
export function LocalDataTable<T extends RaRecord>({ data, emptyText, empty, ...rest }: LocalDataTableProps<T>) {
    return (
        <DataTable<T>
            data={data}
            total={data?.length ?? 0}
            isPending={false}
            size="small"
            rowClick={false}
            bulkActionButtons={false}
            empty={
                emptyText === undefined ? (
                    empty
                ) : (
                    <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
                        {emptyText}
                    </Typography>
                )
            }
            {...rest}
        />
    );
}
