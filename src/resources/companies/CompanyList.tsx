import type { Company } from '../../../common/entities';
import { CardGridList } from '../../ui/CardGridList';
import { CompanyCard } from './CompanyCard';
import { CompanyDialog } from './CompanyDialog';

/** /companies: card grid with the Add/Edit Company dialog. */
export const CompanyList = () => (
    <CardGridList<Company>
        resource="companies"
        sortField="name"
        texts={{
            title: 'Companies',
            noun: 'company',
            add: 'Add Company',
            empty: 'No companies found',
            fetchFailed: 'Failed to fetch companies:',
            deleted: 'Company deleted successfully!',
            deleteFailed: 'Failed to delete company:',
        }}
        nameOf={(company) => company.name}
        renderCard={(company, actions) => <CompanyCard company={company} {...actions} />}
        renderDialog={({ record, ...state }) => <CompanyDialog company={record} {...state} />}
    />
);
