import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { Form, SaveButton, useCreate, useNotify, useUpdate } from 'react-admin';

import type { Company } from '../../../common/entities';
import { CompanyInputs, companyDefaults, toCompanyBody } from './CompanyInputs';
import { withServerMessage } from '../../custom/ui/format';

export interface CompanyDialogProps {
    open: boolean;
    /** The company to edit; absent to add one. */
    company?: Company | null;
    onClose: () => void;
    /** Called after a successful save, before the dialog closes. */
    onSaved?: (company: Company) => void;
}

/** Add/Edit Company dialog of the list. Saving closes it; the caller refreshes the list. */
export const CompanyDialog = ({ open, company, onClose, onSaved }: CompanyDialogProps) => {
    const notify = useNotify();
    const [create] = useCreate<Company>();
    const [update] = useUpdate<Company>();
    const editing = !!company;

    const submit = async (values: Record<string, unknown>) => {
        const data = toCompanyBody(values as Partial<Company>);
        try {
            const saved = editing
                ? await update(
                      'companies',
                      { id: company.id, data, previousData: company },
                      { mutationMode: 'pessimistic', returnPromise: true }
                  )
                : await create('companies', { data }, { returnPromise: true });
            notify(editing ? 'Company updated successfully' : 'Company created successfully', { type: 'success' });
            onSaved?.(saved as Company);
            onClose();
        } catch (error) {
            notify(withServerMessage(editing ? 'Failed to update company' : 'Failed to create company', error), {
                type: 'error',
            });
            return (error as { body?: { errors?: Record<string, string> } }).body?.errors;
        }
    };

    return (
        <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="company-dialog-title">
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
                <DialogActions>
                    <Button onClick={onClose}>Cancel</Button>
                    <SaveButton label={editing ? 'Save' : 'Add'} alwaysEnable />
                </DialogActions>
            </Form>
        </Dialog>
    );
};
