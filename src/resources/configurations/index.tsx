import AccountTreeIcon from '@mui/icons-material/AccountTree';
import { Route } from 'react-router-dom';

import { lazyNamed } from '../../lazyNamed';

const ConfigurationList = lazyNamed(() => import('./ConfigurationList'), 'ConfigurationList');
const ConfigurationDetail = lazyNamed(() => import('./ConfigurationDetail'), 'ConfigurationDetail');

/** /configurations and /configurations/{id} (the detail screen, not react-admin's edit route). */
export default {
    list: ConfigurationList,
    icon: AccountTreeIcon,
    recordRepresentation: 'name',
    children: <Route path=":id" element={<ConfigurationDetail />} />,
};
