import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';

export interface EmptyTableProps {
    /** The table's accessible name, the same as the DataTable's it stands in for. */
    label: string;
    columns: string[];
    text: string;
}

/**
 * A DataTable's `empty` for the tables the spec describes by their columns and no empty text of their own (Audit, the
 * linked notification channels): the columns stay in view over one row saying there is nothing (DataTable alone would
 * show only the `empty` node, without the table).
 */
export const EmptyTable = ({ label, columns, text }: EmptyTableProps) => (
    <Table size="small" aria-label={label}>
        <TableHead>
            <TableRow>
                {columns.map((column) => (
                    <TableCell key={column} align={column === 'Actions' ? 'right' : undefined}>
                        {column}
                    </TableCell>
                ))}
            </TableRow>
        </TableHead>
        <TableBody>
            <TableRow>
                <TableCell colSpan={columns.length}>
                    <Typography color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
                        {text}
                    </Typography>
                </TableCell>
            </TableRow>
        </TableBody>
    </Table>
);
