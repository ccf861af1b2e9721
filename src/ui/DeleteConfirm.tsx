import { Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Confirm } from 'react-admin';

export interface DeleteConfirmProps {
    /** What is deleted, e.g. `company`. */
    noun: string;
    /** Its name, quoted in the question; the dialog is open while set. */
    name: string | null;
    loading?: boolean;
    /** What else the delete affects, shown below the question. */
    details?: ReactNode;
    onConfirm: () => void;
    onClose: () => void;
}

/** "Are you sure you want to delete the <noun> "<name>"? This action cannot be undone." */
export const DeleteConfirm = ({ noun, name, loading, details, onConfirm, onClose }: DeleteConfirmProps) => (
    <Confirm
        isOpen={name !== null}
        loading={loading}
        title={`Delete ${noun}`}
        content={
            <>
                <Typography component="span" display="block">
                    {`Are you sure you want to delete the ${noun} "${name ?? ''}"? This action cannot be undone.`}
                </Typography>
                {details}
            </>
        }
        confirm="Delete"
        confirmColor="warning"
        onConfirm={onConfirm}
        onClose={onClose}
    />
);
