import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { Box, IconButton, Tooltip } from '@mui/material';
import type { MouseEvent, ReactElement, ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';

export interface RowActionProps {
    /** The tooltip: 'Edit'. */
    title: string;
    /** The accessible name, which says what it acts on: 'Edit server node-1'. */
    label: string;
    icon: ReactElement;
    /** A link (view) or a click (everything else). */
    to?: string;
    onClick?: () => void;
    color?: 'default' | 'error' | 'primary';
    disabled?: boolean;
}

/** One icon button of a table row; a click never also triggers the row's own click. */
export const RowAction = ({ title, label, icon, to, onClick, color = 'default', disabled }: RowActionProps) => {
    const stop = (event: MouseEvent) => event.stopPropagation();
    const button = to ? (
        <IconButton size="small" component={RouterLink} to={to} aria-label={label} onClick={stop}>
            {icon}
        </IconButton>
    ) : (
        <IconButton
            size="small"
            color={color}
            aria-label={label}
            disabled={disabled}
            onClick={(event) => {
                stop(event);
                onClick?.();
            }}
        >
            {icon}
        </IconButton>
    );
    // A disabled button fires no events, so the tooltip needs a wrapper to listen on.
    return <Tooltip title={title}>{disabled ? <span>{button}</span> : button}</Tooltip>;
};

export interface RowActionsProps {
    /** What the row is, for the buttons' names: 'server'. */
    noun: string;
    /** Its name: 'View server node-1'. */
    name: string;
    /** The detail page; omit for no View button. */
    viewTo?: string;
    /** Omit (e.g. for a reader) to leave the button out. */
    onEdit?: () => void;
    onDelete?: () => void;
    /** Row-specific buttons (RowAction), between Edit and Delete. */
    children?: ReactNode;
}

/** The View / Edit / … / Delete buttons every table row of the console ends with. */
export const RowActions = ({ noun, name, viewTo, onEdit, onDelete, children }: RowActionsProps) => (
    <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
        {viewTo && (
            <RowAction
                title="View"
                label={`View ${noun} ${name}`}
                icon={<VisibilityIcon fontSize="small" />}
                to={viewTo}
            />
        )}
        {onEdit && (
            <RowAction
                title="Edit"
                label={`Edit ${noun} ${name}`}
                icon={<EditIcon fontSize="small" />}
                onClick={onEdit}
            />
        )}
        {children}
        {onDelete && (
            <RowAction
                title="Delete"
                label={`Delete ${noun} ${name}`}
                icon={<DeleteIcon fontSize="small" />}
                color="error"
                onClick={onDelete}
            />
        )}
    </Box>
);
