import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import type { ReactNode } from 'react';
import { Form, type FormProps, type Identifier, SaveButton } from 'react-admin';

import { DialogError } from './DialogError';

export interface FormDialogProps extends Pick<FormProps, 'record' | 'onSubmit' | 'validate' | 'resource'> {
    open: boolean;
    onClose: () => void;
    /** Names the title's id, `<name>-dialog-title`, which labels the dialog. */
    name: string;
    title: string;
    /** The edited record's id: each record gets a fresh form; none for an Add. */
    recordId?: Identifier | null;
    /** Why the last save failed (useSaveDialog's `error`), shown above the buttons. */
    error: string | null;
    /** Called once the dialog has closed, to clear `error` (useSaveDialog's `resetError`). */
    onExited: () => void;
    /** The submit button: 'Add', 'Save' or 'Edit'. */
    saveLabel: string;
    onSaveClick?: () => void;
    /** Buttons between Cancel and the submit button. */
    actions?: ReactNode;
    /** The inputs. */
    children: ReactNode;
}

/**
 * The Add/Edit dialog every resource uses: a react-admin form titled `title`, its inputs, the save's refusal, and
 * Cancel then the submit button. The form shows field errors itself, so no toast says the form is invalid.
 */
export const FormDialog = ({
    open,
    onClose,
    name,
    title,
    recordId,
    error,
    onExited,
    saveLabel,
    onSaveClick,
    actions,
    children,
    ...form
}: FormDialogProps) => (
    <Dialog
        slotProps={{ transition: { onExited } }}
        open={open}
        onClose={onClose}
        fullWidth
        maxWidth="sm"
        aria-labelledby={`${name}-dialog-title`}
    >
        <Form disableInvalidFormNotification key={recordId ?? 'new'} {...form}>
            <DialogTitle id={`${name}-dialog-title`}>{title}</DialogTitle>
            <DialogContent>{children}</DialogContent>
            <DialogError message={error} />
            <DialogActions>
                <Button onClick={onClose}>Cancel</Button>
                {actions}
                <SaveButton label={saveLabel} alwaysEnable onClick={onSaveClick} />
            </DialogActions>
        </Form>
    </Dialog>
);
