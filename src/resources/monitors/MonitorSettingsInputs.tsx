import { Typography } from '@mui/material';
import { NumberInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';

import { MONITOR_SETTINGS } from '../../../common/monitor-types';
import { isDerivedSetting, isMonitorType } from './monitorForm';

/** The chosen type's settings (spec §3): defaults, helper texts and bounds from the shared catalogue. */
export const MonitorSettingsInputs = () => {
    const type = useWatch({ name: 'type' });
    if (!isMonitorType(type)) return null;
    return (
        <>
            <Typography variant="subtitle2" sx={{ mt: 2, mb: 1 }}>
                Settings
            </Typography>
            {MONITOR_SETTINGS[type]
                .filter((field) => !isDerivedSetting(type, field.key))
                .map((field) =>
                    field.kind === 'number' ? (
                        <NumberInput
                            key={`${type}.${field.key}`}
                            source={`settings.${type}.${field.key}`}
                            label={field.label}
                            defaultValue={field.default}
                            helperText={field.helperText ?? false}
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
