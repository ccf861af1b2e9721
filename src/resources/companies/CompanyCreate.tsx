import { Create, SimpleForm, useNotify } from 'react-admin';
import { useNavigate } from 'react-router-dom';

import type { Company } from '../../../common/entities';
import { CompanyInputs, companyDefaults, toCompanyBody } from './CompanyInputs';
import { FormToolbar } from '../../ui/FormToolbar';
import { withServerMessage } from '../../ui/format';

/** /companies/add: the page form. */
export const CompanyCreate = () => {
    const notify = useNotify();
    const navigate = useNavigate();
    return (
        <Create<Company>
            resource="companies"
            title="Add Company"
            redirect={false}
            transform={(data) => toCompanyBody(data) as Company}
            mutationOptions={{
                onSuccess: (company) => {
                    notify('Company created successfully', { type: 'success' });
                    navigate(`/companies/${company.id}`);
                },
                onError: (error) => notify(withServerMessage('Failed to create company', error), { type: 'error' }),
            }}
        >
            <SimpleForm disableInvalidFormNotification defaultValues={companyDefaults} toolbar={<FormToolbar />}>
                <CompanyInputs />
            </SimpleForm>
        </Create>
    );
};
