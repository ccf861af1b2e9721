import { ToggleButton, ToggleButtonGroup } from '@mui/material';

import { RANGES, type RangeKey } from './ranges';

export interface RangePickerProps {
    value: RangeKey;
    onChange: (value: RangeKey) => void;
}

/** 1 h … 1 y as one group of toggle buttons; the chosen one stays pressed (a second click does not clear it). */
export const RangePicker = ({ value, onChange }: RangePickerProps) => (
    <ToggleButtonGroup
        size="small"
        exclusive
        value={value}
        onChange={(_, next: RangeKey | null) => next && onChange(next)}
        aria-label="Time range"
        sx={{ flexWrap: 'wrap' }}
    >
        {RANGES.map((range) => (
            <ToggleButton key={range.key} value={range.key} sx={{ px: 1.25 }}>
                {range.label}
            </ToggleButton>
        ))}
    </ToggleButtonGroup>
);
