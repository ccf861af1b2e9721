import {
    AddItemButton,
    ArrayInput,
    BooleanInput,
    ReferenceInput,
    RemoveItemButton,
    required,
    SelectInput,
    SimpleFormIterator,
    TextInput,
} from 'react-admin';

import { CHAIN_ENDPOINT_TYPES, type ChainEndpoint } from '../../../common/chain-endpoints';
import type { Configuration } from '../../../common/entities';
import { retryUnlessClientError } from '../../ui/retry';
import { ChainInput } from './ChainInput';

export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields';

export interface ConfigurationFormValues {
    name?: string;
    chain?: string;
    is_enabled?: boolean;
    company_id?: number | string | null;
    /** Left undefined until the user touches the list, so a form that never showed it sends no change. */
    chain_endpoints?: Partial<ChainEndpoint>[];
}

/** New configurations are enabled (docs/spec.md §4). */
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
    ...(configuration.chain_endpoints?.length ? { chain_endpoints: configuration.chain_endpoints } : {}),
});

/** The endpoints as the API takes them; rows left without an address are dropped. */
const endpointsBody = (rows: Partial<ChainEndpoint>[]): ChainEndpoint[] =>
    rows.flatMap((r) => {
        const address = (r.address ?? '').trim();
        return address ? [{ type: r.type ?? 'rpc', address }] : [];
    });

/**
 * The body sent for a configuration, or null when name or chain is missing (docs/spec.md §5: nothing is sent).
 * company_id goes only with a super admin's choice; for others the API uses their own company. `hadEndpoints`: the
 * configuration was saved with chain endpoints (an empty list then clears them).
 */
export function toConfigurationBody(values: ConfigurationFormValues, withCompany: boolean, hadEndpoints = false) {
    const name = (values.name ?? '').trim();
    const chain = (values.chain ?? '').trim();
    if (!name || !chain) return null;
    const companyId = values.company_id;
    const endpoints = endpointsBody(values.chain_endpoints ?? []);
    return {
        name,
        chain,
        is_enabled: values.is_enabled ?? true,
        // Sent when there are some, or to clear the saved ones: the spec's body otherwise stays as it was.
        ...(endpoints.length > 0 || hadEndpoints ? { chain_endpoints: endpoints } : {}),
        ...(withCompany && companyId !== null && companyId !== undefined && companyId !== ''
            ? { company_id: Number(companyId) }
            : {}),
    };
}

const ENDPOINT_TYPE_CHOICES = CHAIN_ENDPOINT_TYPES.map((t) => ({ id: t, name: t.toUpperCase() }));

/** Name, Chain (autocomplete), Enabled, chain endpoints and, for super admins, the Company. */
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
        <ArrayInput
            source="chain_endpoints"
            label="Chain endpoints"
            helperText="Public or provider RPC/REST endpoints of this chain; the validator-duty monitors read through any fresh one when this configuration's own nodes fall behind"
        >
            {/* Named apart from the dialog's own Add button. */}
            <SimpleFormIterator
                inline
                disableReordering
                // Not "Add …": the dialog's submit button must stay the only button whose name holds "Add".
                addButton={<AddItemButton label="New chain endpoint" />}
                removeButton={<RemoveItemButton label="Remove chain endpoint" />}
            >
                <SelectInput
                    source="type"
                    label="Type"
                    choices={ENDPOINT_TYPE_CHOICES}
                    defaultValue="rpc"
                    validate={required()}
                />
                <TextInput source="address" label="Address" validate={required()} sx={{ minWidth: 280 }} />
            </SimpleFormIterator>
        </ArrayInput>
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
