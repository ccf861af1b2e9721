import type { Company } from '../../../common/entities';
import { CompanyInputs, companyDefaults, toCompanyBody } from './CompanyInputs';
import { useSaveDialog } from '../../ui/useSaveDialog';
import { FormDialog } from '../../ui/FormDialog';

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
        <FormDialog
            open={open}
            onClose={onClose}
            name="company"
            title={editing ? 'Edit Company' : 'Add Company'}
            recordId={company?.id}
            record={company ?? companyDefaults}
            onSubmit={submit}
            resource="companies"
            error={error}
            onExited={resetError}
            saveLabel={editing ? 'Save' : 'Add'}
        >
            <CompanyInputs />
        </FormDialog>
    );
};
