import { BooleanInput, TextInput } from 'react-admin';

import type { Company } from '../../../common/entities';

export const COMPANY_NAME_REQUIRED = 'Company name is required';

/** Name is required once trimmed (spec §5). */
export const validateCompanyName = (value: unknown) =>
    typeof value === 'string' && value.trim() !== '' ? undefined : COMPANY_NAME_REQUIRED;

export const companyDefaults = { name: '', is_active: true };

/** The body sent for a company: trimmed name and the active flag. */
export const toCompanyBody = (data: Partial<Company>) => ({
    name: (data.name ?? '').trim(),
    is_active: data.is_active ?? true,
});

/** Fields of the company dialog and page form: Name and Active. */
export const CompanyInputs = () => (
    <>
        <TextInput source="name" label="Name" validate={validateCompanyName} fullWidth />
        <BooleanInput source="is_active" label="Active" />
    </>
);
