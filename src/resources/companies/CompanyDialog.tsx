import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { Form, SaveButton } from 'react-admin';

import type { Company } from '../../../common/entities';
import { CompanyInputs, companyDefaults, toCompanyBody } from './CompanyInputs';
import { useSaveDialog } from '../../ui/useSaveDialog';
import { DialogError } from '../../ui/DialogError';

export interface CompanyDialogProps {
    open: boolean;
    /** The company to edit; absent to add one. */
    company?: Company | null;
    onClose: () => void;
    /** Called after a successful save, before the dialog closes. */
    onSaved?: (company: Company) => void;
}

const TEXTS = {
    added: 'Company created successfully',
    edited: 'Company updated successfully',
    addFailed: 'Failed to create company',
    editFailed: 'Failed to update company',
};

/** Add/Edit Company dialog of the list. Saving closes it; the caller refreshes the list. */
export const CompanyDialog = ({ open, company, onClose, onSaved }: CompanyDialogProps) => {
    const { save, editing, error, resetError } = useSaveDialog<Company>('companies', company, TEXTS, (saved) => {
        onSaved?.(saved);
        onClose();
    });
    const submit = (values: Record<string, unknown>) => save(toCompanyBody(values as Partial<Company>));

    return (
        <Dialog
            slotProps={{ transition: { onExited: resetError } }}
            open={open}
            onClose={onClose}
            fullWidth
            maxWidth="sm"
            aria-labelledby="company-dialog-title"
        >
            <Form
                disableInvalidFormNotification
                key={company?.id ?? 'new'}
                record={company ?? companyDefaults}
                onSubmit={submit}
                resource="companies"
            >
                <DialogTitle id="company-dialog-title">{editing ? 'Edit Company' : 'Add Company'}</DialogTitle>
                <DialogContent>
                    <CompanyInputs />
                </DialogContent>
                <DialogError message={error} />
                <DialogActions>
                    <Button onClick={onClose}>Cancel</Button>
                    <SaveButton label={editing ? 'Save' : 'Add'} alwaysEnable />
                </DialogActions>
            </Form>
        </Dialog>
    );
};
