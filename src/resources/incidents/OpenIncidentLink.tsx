import { Link } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';

import { formatDuration } from '../../../common/duration';
import type { OpenIncidentRef } from '../../../common/incidents';

/**
 * "Incident open for 12 min", linking to the incident page (dashboard rows, monitor page, chain halt rows), and
 * "acked by alice" once someone is on it, so nobody else picks it up.
 */
export const OpenIncidentLink = ({ incident }: { incident: OpenIncidentRef }) => (
    <>
        <Link component={RouterLink} to={`/incidents/${encodeURIComponent(incident.id)}`}>
            Incident open for {formatDuration(Date.now() - Date.parse(incident.opened_at))}
        </Link>
        {incident.acknowledged_by && ` · acked by ${incident.acknowledged_by}`}
    </>
);
