import DnsIcon from '@mui/icons-material/Dns';
import { Route } from 'react-router-dom';

import { lazyNamed } from '../../lazyNamed';

const ServerList = lazyNamed(() => import('./ServerList'), 'ServerList');
const ServerDetail = lazyNamed(() => import('./ServerDetail'), 'ServerDetail');

/** /servers (placeholder text) and /servers/{id} (the server detail screen). */
export default {
    list: ServerList,
    icon: DnsIcon,
    recordRepresentation: 'name',
    children: <Route path=":id" element={<ServerDetail />} />,
};
