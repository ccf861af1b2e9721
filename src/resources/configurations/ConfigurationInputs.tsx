import { BooleanInput, ReferenceInput, required, SelectInput, TextInput } from 'react-admin';

import type { Configuration } from '../../../common/entities';
import { retryUnlessClientError } from '../../custom/ui/retry';
import { ChainInput } from './ChainInput';

export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields';

export interface ConfigurationFormValues {
    name?: string;
    chain?: string;
    is_enabled?: boolean;
    company_id?: number | string | null;
}

/** New configurations are enabled (spec §4). */
export const configurationDefaults: ConfigurationFormValues = {
    name: '',
    chain: '',
    is_enabled: true,
    company_id: null,
};

export const toConfigurationFormValues = (configuration: Configuration): ConfigurationFormValues => ({
    name: configuration.name,
    chain: configuration.chain,
    is_enabled: configuration.is_enabled,
    company_id: configuration.company_id ?? configuration.company?.id ?? null,
});

/**
 * The body sent for a configuration, or null when name or chain is missing (spec §5: nothing is sent).
 * company_id goes only with a super admin's choice; for others the API uses their own company.
 */
export function toConfigurationBody(values: ConfigurationFormValues, withCompany: boolean) {
    const name = (values.name ?? '').trim();
    const chain = (values.chain ?? '').trim();
    if (!name || !chain) return null;
    const companyId = values.company_id;
    return {
        name,
        chain,
        is_enabled: values.is_enabled ?? true,
        ...(withCompany && companyId !== null && companyId !== undefined && companyId !== ''
            ? { company_id: Number(companyId) }
            : {}),
    };
}

/** Name, Chain (autocomplete), Enabled and, for super admins, the Company. */
export const ConfigurationInputs = ({
    withCompany,
    companyRequired = false,
}: {
    withCompany: boolean;
    /** Marks and checks the Company field (a super admin without a company of their own). */
    companyRequired?: boolean;
}) => (
    <>
        <TextInput source="name" label="Name" fullWidth />
        <ChainInput />
        <BooleanInput source="is_enabled" label="Enabled" />
        {withCompany && (
            <ReferenceInput
                source="company_id"
                reference="companies"
                perPage={1000}
                sort={{ field: 'name', order: 'ASC' }}
                queryOptions={{ retry: retryUnlessClientError }}
            >
                <SelectInput
                    label="Company"
                    optionText="name"
                    emptyText="Select a company"
                    validate={companyRequired ? required('Please select a company') : undefined}
                    fullWidth
                />
            </ReferenceInput>
        )}
    </>
);
