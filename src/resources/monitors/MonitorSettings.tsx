import { Box, Stack, Typography } from '@mui/material';

import { defaultSettings, MONITOR_CATALOGUE, type MonitorType, type SettingField } from '../../../common/monitor-types';

/** The stored `configuration_object` as an object; an unreadable one is treated as empty. */
export function parseSettings(configurationObject: string | null | undefined): Record<string, unknown> {
    if (!configurationObject) return {};
    try {
        const value: unknown = JSON.parse(configurationObject);
        return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    } catch {
        return {};
    }
}

const display = (value: unknown) =>
    value === undefined || value === null || value === ''
        ? 'N/A'
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);

/**
 * The type's settings (stored value, else the default) with their labels and helper texts, then any stored key
 * the catalogue does not know.
 */
export const MonitorSettings = ({ type, configurationObject }: { type: MonitorType; configurationObject: string }) => {
    const known: SettingField[] = MONITOR_CATALOGUE[type]?.settings ?? [];
    // What the engine runs with: the stored values over the type's defaults.
    const values = { ...(known.length ? defaultSettings(type) : {}), ...parseSettings(configurationObject) };
    const extra = Object.keys(values).filter((key) => !known.some((field) => field.key === key));
    if (known.length === 0 && extra.length === 0) {
        return <Typography color="text.secondary">No settings</Typography>;
    }
    return (
        <Stack spacing={1.5}>
            {known.map((field) => (
                <Box key={field.key}>
                    <Typography>
                        <strong>{field.label}:</strong> {display(values[field.key])}
                    </Typography>
                    {field.helperText && (
                        <Typography variant="caption" color="text.secondary">
                            {field.helperText}
                        </Typography>
                    )}
                </Box>
            ))}
            {extra.map((key) => (
                <Typography key={key}>
                    <strong>{key}:</strong> {display(values[key])}
                </Typography>
            ))}
        </Stack>
    );
};
