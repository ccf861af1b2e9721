import BusinessIcon from '@mui/icons-material/Business';
import { Route } from 'react-router-dom';

import { lazyNamed } from '../../lazyNamed';

const CompanyList = lazyNamed(() => import('./CompanyList'), 'CompanyList');
const CompanyShow = lazyNamed(() => import('./CompanyShow'), 'CompanyShow');
const CompanyCreate = lazyNamed(() => import('./CompanyCreate'), 'CompanyCreate');
const CompanyEdit = lazyNamed(() => import('./CompanyEdit'), 'CompanyEdit');

/** /companies, /companies/{id} (overview), /companies/add and /companies/{id}/edit (spec §2). */
export default {
    list: CompanyList,
    icon: BusinessIcon,
    recordRepresentation: 'name',
    children: (
        <>
            <Route path="add" element={<CompanyCreate />} />
            <Route path=":id" element={<CompanyShow />} />
            <Route path=":id/edit" element={<CompanyEdit />} />
        </>
    ),
};
