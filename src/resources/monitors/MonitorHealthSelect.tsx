import { MenuItem, TextField } from '@mui/material';

import { type Health, type HealthFields, monitorHealth } from '../../../common/health';

export type HealthFilter = '' | Health;

/** The status filter choices of docs/spec.md §4; '' means all. */
export const HEALTH_FILTER_CHOICES: { value: HealthFilter; label: string }[] = [
    { value: '', label: 'All Status' },
    { value: 'healthy', label: 'Healthy' },
    { value: 'warning', label: 'Warning' },
    { value: 'error', label: 'Error' },
];

/** Keeps the monitors whose derived health is the one asked for. */
export function filterByHealth<T extends HealthFields>(monitors: T[], wanted: HealthFilter): T[] {
    return wanted ? monitors.filter((m) => monitorHealth(m) === wanted) : monitors;
}

export interface MonitorHealthSelectProps {
    value: HealthFilter;
    onChange: (value: HealthFilter) => void;
    label?: string;
}

/** 'All Status' / 'Healthy' / 'Warning' / 'Error' select. */
export const MonitorHealthSelect = ({ value, onChange, label = 'Status' }: MonitorHealthSelectProps) => (
    <TextField
        select
        size="small"
        label={label}
        value={value}
        onChange={(event) => onChange(event.target.value as HealthFilter)}
        sx={{ minWidth: 150 }}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
        {HEALTH_FILTER_CHOICES.map((choice) => (
            <MenuItem key={choice.value || 'all'} value={choice.value}>
                {choice.label}
            </MenuItem>
        ))}
    </TextField>
);
