import { Edit, SimpleForm, useNotify } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';

import type { Company } from '../../../common/entities';
import { retryUnlessClientError } from '../../ui/retry';
import { CompanyInputs, toCompanyBody } from './CompanyInputs';
import { CompanyQuotaInputs, toCompanyQuotaBody } from './CompanyQuota';
import { FormToolbar } from '../../ui/FormToolbar';
import { withServerMessage } from '../../ui/format';

/** /companies/{id}/edit: the same form as /companies/add. */
export const CompanyEdit = () => {
    const { id = '' } = useParams();
    const notify = useNotify();
    const navigate = useNavigate();
    return (
        <Edit<Company>
            resource="companies"
            id={Number(id)}
            title="Edit Company"
            actions={false}
            redirect={false}
            mutationMode="pessimistic"
            transform={(data) => ({ ...toCompanyBody(data), ...toCompanyQuotaBody(data) }) as Company}
            queryOptions={{
                retry: retryUnlessClientError,
                onError: () => {
                    notify('Failed to fetch company!', { type: 'error' });
                    navigate('/companies');
                },
            }}
            mutationOptions={{
                onSuccess: () => {
                    notify('Company updated successfully', { type: 'success' });
                    navigate(`/companies/${id}`);
                },
                onError: (error) => notify(withServerMessage('Failed to update company', error), { type: 'error' }),
            }}
        >
            <SimpleForm disableInvalidFormNotification toolbar={<FormToolbar />}>
                <CompanyInputs />
                <CompanyQuotaInputs />
            </SimpleForm>
        </Edit>
    );
};
