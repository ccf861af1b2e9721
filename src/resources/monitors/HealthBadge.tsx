import { Chip } from '@mui/material';

import { type Health, type HealthFields, groupHealth, monitorHealth } from '../../../common/health';

export const HEALTH_LABELS: Record<Health, string> = { healthy: 'Healthy', warning: 'Warning', error: 'Error' };
const HEALTH_COLORS = { healthy: 'success', warning: 'warning', error: 'error' } as const;

/** Group badge of a set of monitors (spec §4): 'Error (n)', 'Warning (n)' or 'Healthy'. */
export const HealthBadge = ({ monitors }: { monitors: HealthFields[] }) => {
    const { health, count } = groupHealth(monitors);
    const label = health === 'healthy' ? HEALTH_LABELS.healthy : `${HEALTH_LABELS[health]} (${count})`;
    return <Chip size="small" label={label} color={HEALTH_COLORS[health]} />;
};

/** One monitor's derived health: Healthy, Warning or Error. */
export const MonitorHealthChip = ({ monitor }: { monitor: HealthFields }) => {
    const health = monitorHealth(monitor);
    return <Chip size="small" variant="outlined" label={HEALTH_LABELS[health]} color={HEALTH_COLORS[health]} />;
};
