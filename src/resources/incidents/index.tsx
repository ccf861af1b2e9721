import ReportProblemIcon from '@mui/icons-material/ReportProblem';
import { Route } from 'react-router-dom';

import { lazyNamed } from '../../lazyNamed';

const IncidentList = lazyNamed(() => import('./IncidentList'), 'IncidentList');
const IncidentPage = lazyNamed(() => import('./IncidentPage'), 'IncidentPage');

/** /incidents and /incidents/{id} (the incident page with its timeline). */
export default {
    list: IncidentList,
    icon: ReportProblemIcon,
    recordRepresentation: 'id',
    children: <Route path=":id" element={<IncidentPage />} />,
};
