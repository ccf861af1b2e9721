import BusinessIcon from '@mui/icons-material/Business';
import { Route } from 'react-router-dom';

import { SuperAdminOnly } from '../../ui/SuperAdminOnly';
import { lazyNamed } from '../../lazyNamed';

const CompanyList = lazyNamed(() => import('./CompanyList'), 'CompanyList');
const CompanyShow = lazyNamed(() => import('./CompanyShow'), 'CompanyShow');
const CompanyCreate = lazyNamed(() => import('./CompanyCreate'), 'CompanyCreate');
const CompanyEdit = lazyNamed(() => import('./CompanyEdit'), 'CompanyEdit');

/** /companies, /companies/{id} (overview), /companies/add and /companies/{id}/edit (docs/spec.md §2). */
export default {
    list: () => (
        <SuperAdminOnly title="Companies">
            <CompanyList />
        </SuperAdminOnly>
    ),
    icon: BusinessIcon,
    recordRepresentation: 'name',
    children: (
        <>
            <Route
                path="add"
                element={
                    <SuperAdminOnly title="Companies">
                        <CompanyCreate />
                    </SuperAdminOnly>
                }
            />
            <Route
                path=":id"
                element={
                    <SuperAdminOnly title="Companies">
                        <CompanyShow />
                    </SuperAdminOnly>
                }
            />
            <Route
                path=":id/edit"
                element={
                    <SuperAdminOnly title="Companies">
                        <CompanyEdit />
                    </SuperAdminOnly>
                }
            />
        </>
    ),
};
