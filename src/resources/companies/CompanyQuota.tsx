import { Typography } from '@mui/material';
import { maxValue, minValue, NumberInput, number, required } from 'react-admin';

import { MAX_CONCURRENT_CHECKS_LIMIT, MIN_INTERVAL_SECONDS_LIMIT, QUOTA_DEFAULTS } from '../../../common/company-quota';
import type { Company } from '../../../common/entities';

/**
 * The company's share of the monitoring engine, set by a super admin on the company page. Kept apart from
 * the spec's Name and Active fields: the Add/Edit dialog of the list does not show it, and a save from the dialog
 * leaves the stored quota as it is.
 */
const whole = (value: unknown) =>
    value === undefined || value === null || Number.isInteger(value) ? undefined : 'Must be a whole number';

export const CompanyQuotaInputs = () => (
    <>
        <Typography variant="subtitle2" sx={{ mt: 2, mb: 1 }}>
            Engine quota
        </Typography>
        <NumberInput
            source="max_concurrent_checks"
            label="Max concurrent checks"
            helperText="How many of this company's checks may run at once; the others wait for its own slots"
            validate={[required(), number(), whole, minValue(1), maxValue(MAX_CONCURRENT_CHECKS_LIMIT)]}
            min={1}
            max={MAX_CONCURRENT_CHECKS_LIMIT}
            step={1}
            fullWidth
        />
        <NumberInput
            source="min_interval_seconds"
            label="Min check interval (seconds)"
            helperText="Monitors of this company run at most this often; saving a faster one is refused"
            validate={[required(), number(), whole, minValue(1), maxValue(MIN_INTERVAL_SECONDS_LIMIT)]}
            min={1}
            max={MIN_INTERVAL_SECONDS_LIMIT}
            step={1}
            fullWidth
        />
    </>
);

/** The quota fields of a save from the page form. */
export const toCompanyQuotaBody = (data: Partial<Company>) => ({
    max_concurrent_checks: data.max_concurrent_checks ?? QUOTA_DEFAULTS.max_concurrent_checks,
    min_interval_seconds: data.min_interval_seconds ?? QUOTA_DEFAULTS.min_interval_seconds,
});

/** The overview's lines for the quota. */
export const CompanyQuotaDetails = ({ company }: { company: Company }) => (
    <>
        <Typography>
            <strong>Max concurrent checks:</strong> {company.max_concurrent_checks}
        </Typography>
        <Typography>
            <strong>Min check interval:</strong> {company.min_interval_seconds} s
        </Typography>
    </>
);
