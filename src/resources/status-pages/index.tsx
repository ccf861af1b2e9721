import PublicIcon from '@mui/icons-material/Public';

import { lazyNamed } from '../../lazyNamed';

const StatusPageList = lazyNamed(() => import('./StatusPageList'), 'StatusPageList');
const StatusPageCreate = lazyNamed(() => import('./StatusPageForms'), 'StatusPageCreate');
const StatusPageEdit = lazyNamed(() => import('./StatusPageForms'), 'StatusPageEdit');

/** /status-pages, /status-pages/create and /status-pages/{id}: what a company publishes at /status/{slug}. */
export default {
    list: StatusPageList,
    create: StatusPageCreate,
    edit: StatusPageEdit,
    icon: PublicIcon,
    recordRepresentation: 'title',
};
