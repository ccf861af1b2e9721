import { Chip } from '@mui/material';

import { formatDuration } from '../../../common/duration';
import type { Incident } from '../../../common/incidents';

/** Seconds as the messages say durations: '45 s', '12 min', '3 h 5 min'; '—' when unknown. */
export const seconds = (value: number | null | undefined) =>
    value === null || value === undefined ? '—' : formatDuration(value * 1000);

/** Open (red while nobody took it, orange once acknowledged) or closed. */
export const IncidentStatusChip = ({ incident }: { incident: Pick<Incident, 'status' | 'acknowledged_at'> }) =>
    incident.status === 'closed' ? (
        <Chip size="small" label="Closed" color="success" variant="outlined" />
    ) : incident.acknowledged_at ? (
        <Chip size="small" label="Acknowledged" color="warning" />
    ) : (
        <Chip size="small" label="Open" color="error" />
    );

/** What the incident is about: the monitor, or the chain for a chain halt. */
export const incidentSubject = (incident: Incident) =>
    incident.kind === 'chain'
        ? `Chain halt (${incident.configuration_name})`
        : (incident.monitor_name ?? `Monitor #${incident.monitor_id}`);
