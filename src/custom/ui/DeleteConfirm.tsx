import { Confirm } from 'react-admin';

export interface DeleteConfirmProps {
    /** What is deleted, e.g. `company`. */
    noun: string;
    /** Its name, quoted in the question; the dialog is open while set. */
    name: string | null;
    loading?: boolean;
    onConfirm: () => void;
    onClose: () => void;
}

/** "Are you sure you want to delete the <noun> "<name>"? This action cannot be undone." */
export const DeleteConfirm = ({ noun, name, loading, onConfirm, onClose }: DeleteConfirmProps) => (
    <Confirm
        isOpen={name !== null}
        loading={loading}
        title={`Delete ${noun}`}
        content={`Are you sure you want to delete the ${noun} "${name ?? ''}"? This action cannot be undone.`}
        confirm="Delete"
        confirmColor="warning"
        onConfirm={onConfirm}
        onClose={onClose}
    />
);
