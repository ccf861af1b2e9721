import { Typography } from '@mui/material';
import { NumberInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';

import { blockStallText, defaultSettings, MONITOR_CATALOGUE, type SettingField } from '../../../common/monitor-types';
import { isDerivedSetting, isMonitorType } from './monitorForm';

const BLOCK_DEFAULTS = defaultSettings('blockCheck');

/** The chosen type's settings (docs/spec.md §3): defaults, helper texts and bounds from the shared catalogue. */
export const MonitorSettingsInputs = () => {
    const type = useWatch({ name: 'type' });
    const tolerance = useWatch({ name: 'settings.blockCheck.miss_tolerance' });
    const sleep = useWatch({ name: 'settings.blockCheck.sleep_duration_seconds' });
    if (!isMonitorType(type)) return null;
    /** blockCheck's tolerance counts polls, not blocks: the form says so and what stall time it amounts to. */
    const helperText = (field: SettingField) => {
        // Until the inputs register their defaults, the watched values are still unset.
        const polls = Number(tolerance ?? BLOCK_DEFAULTS.miss_tolerance);
        const every = Number(sleep ?? BLOCK_DEFAULTS.sleep_duration_seconds);
        const stall =
            type === 'blockCheck' && field.key === 'miss_tolerance' && polls > 0 && every > 0
                ? blockStallText(polls, every)
                : null;
        if (!stall) return field.helperText ?? false;
        return (
            <>
                <span>{field.helperText}</span>
                <span style={{ display: 'block' }}>{stall}</span>
            </>
        );
    };
    return (
        <>
            <Typography variant="subtitle2" sx={{ mt: 2, mb: 1 }}>
                Settings
            </Typography>
            {MONITOR_CATALOGUE[type].settings
                .filter((field) => !isDerivedSetting(type, field.key))
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
