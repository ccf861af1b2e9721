import { Typography } from '@mui/material';
import { NumberInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';

import { defaultSettings, MONITOR_CATALOGUE, type SettingField } from '../../../common/monitor-types';
import { isDerivedSetting, isMonitorType } from './monitorForm';

/** The chosen type's settings (docs/spec.md §3): defaults, helper texts, hints and bounds from the shared catalogue. */
export const MonitorSettingsInputs = () => {
    const type = useWatch({ name: 'type' });
    const watched: Record<string, unknown> | undefined = useWatch({ name: `settings.${type}` });
    if (!isMonitorType(type)) return null;
    // Until the inputs register their defaults, the watched values are still unset.
    const set = Object.entries(watched ?? {}).filter(([, value]) => value !== undefined && value !== null);
    const values = { ...defaultSettings(type), ...Object.fromEntries(set) };
    const helperText = (field: SettingField) => {
        const hint = field.hint?.(values) ?? null;
        if (!hint) return field.helperText ?? false;
        return (
            <>
                <span>{field.helperText}</span>
                <span style={{ display: 'block' }}>{hint}</span>
            </>
        );
    };
    return (
        <>
            <Typography variant="subtitle2" sx={{ mt: 2, mb: 1 }}>
                Settings
            </Typography>
            {MONITOR_CATALOGUE[type].settings
                .filter((field) => !isDerivedSetting(field))
                .map((field) =>
                    field.kind === 'number' ? (
                        <NumberInput
                            key={`${type}.${field.key}`}
                            source={`settings.${type}.${field.key}`}
                            label={field.label}
                            defaultValue={field.default}
                            helperText={helperText(field)}
                            min={field.min}
                            max={field.max}
                            step={field.decimals ? 'any' : 1}
                            fullWidth
                        />
                    ) : (
                        <TextInput
                            key={`${type}.${field.key}`}
                            source={`settings.${type}.${field.key}`}
                            label={field.label}
                            defaultValue={field.default}
                            helperText={field.helperText ?? false}
                            fullWidth
                        />
                    )
                )}
        </>
    );
};
