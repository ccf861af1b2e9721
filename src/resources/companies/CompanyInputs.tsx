import { BooleanInput, TextInput } from 'react-admin';

import type { Company } from '../../../common/entities';

export const COMPANY_NAME_REQUIRED = 'Company name is required';

/** Name is required once trimmed (docs/spec.md §5). */
export const validateCompanyName = (value: unknown) =>
    typeof value === 'string' && value.trim() !== '' ? undefined : COMPANY_NAME_REQUIRED;

export const companyDefaults = { name: '', is_active: true };

/** Allowed networks are edited as text, one CIDR range per line (commas and spaces also separate). */
export const toNetworkList = (value: unknown): string[] | undefined =>
    Array.isArray(value)
        ? value.map(String)
        : typeof value === 'string'
          ? value.split(/[\s,]+/).filter((s) => s !== '')
          : undefined;
const formatNetworks = (value: unknown) => (Array.isArray(value) ? value.join('\n') : (value ?? ''));

/** The body sent for a company: trimmed name and the active flag (and the allowed networks once the form has them). */
export const toCompanyBody = (data: Partial<Company> | Record<string, unknown>) => {
    const networks = toNetworkList(data.allowed_networks);
    return {
        name: String(data.name ?? '').trim(),
        is_active: (data.is_active as boolean | undefined) ?? true,
        ...(networks ? { allowed_networks: networks } : {}),
    };
};

/** Fields of the company dialog and page form: Name, Active and the private networks its checks may reach. */
export const CompanyInputs = () => (
    <>
        <TextInput source="name" label="Name" validate={validateCompanyName} fullWidth />
        <BooleanInput source="is_active" label="Active" />
        <TextInput
            source="allowed_networks"
            label="Allowed networks"
            format={formatNetworks}
            parse={(text: string) => text}
            multiline
            minRows={2}
            fullWidth
            helperText="One CIDR range per line, e.g. 10.0.0.0/8. This company's services and monitors may reach loopback, private and link-local addresses only inside these ranges; cloud metadata stays refused."
        />
    </>
);
