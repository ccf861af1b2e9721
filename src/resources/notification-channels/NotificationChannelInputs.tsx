import { FormHelperText } from '@mui/material';
import {
    BooleanInput,
    FormDataConsumer,
    ReferenceInput,
    SelectInput,
    TextInput,
    useInput,
    ValidationError,
    type ValidationErrorMessage,
} from 'react-admin';

import { CHANNEL_CATALOGUE } from '../../../common/channel-catalogue';
import { CHANNEL_TYPES, type ChannelType } from '../../../common/channel-types';
import { retryUnlessClientError } from '../../ui/retry';
import { type ChannelFormValues, isChannelType } from './channelForm';

const TYPE_CHOICES = CHANNEL_TYPES.map((type) => ({ id: type, name: type }));

/** Shows the form-level 'Please enter a configuration object!' where the type's settings go. */
const ConfigurationObjectError = () => {
    const { fieldState } = useInput({ source: 'configuration_object' });
    // A form-level error arrives as `{message}`, a server one as a string: ValidationError reads both.
    const message = fieldState.error?.message as ValidationErrorMessage | undefined;
    return message ? (
        <FormHelperText error>
            <ValidationError error={message} />
        </FormHelperText>
    ) : null;
};

/**
 * The chosen type's settings, built from the channel catalogue, each under its plain label; a saved secret arrives
 * masked and is kept when sent back as is.
 */
const SettingInputs = ({ type }: { type: ChannelType }) => (
    <>
        {CHANNEL_CATALOGUE[type].fields.map((field) =>
            field.kind === 'boolean' ? (
                <BooleanInput
                    key={`${type}.${field.key}`}
                    source={field.key}
                    label={field.label}
                    helperText={field.helperText ?? false}
                />
            ) : field.kind === 'select' ? (
                <SelectInput
                    key={`${type}.${field.key}`}
                    source={field.key}
                    label={field.label}
                    choices={(field.choices ?? []).map((c) => ({ id: c, name: c }))}
                    isRequired={field.required}
                    helperText={field.helperText ?? false}
                    fullWidth
                />
            ) : (
                <TextInput
                    key={`${type}.${field.key}`}
                    source={field.key}
                    label={field.label}
                    isRequired={field.required}
                    helperText={field.helperText ?? false}
                    multiline={field.multiline ?? field.kind === 'map'}
                    fullWidth
                />
            )
        )}
    </>
);

export interface NotificationChannelInputsProps {
    /** Super admins pick the owning company when adding (a channel never moves company). */
    showCompany: boolean;
    /** Marks the Company field required (a super admin without a company of their own). */
    companyRequired?: boolean;
}

/** Name, type, the type's settings and Enabled; validation is form-level (see validateChannel). */
export const NotificationChannelInputs = ({ showCompany, companyRequired = false }: NotificationChannelInputsProps) => (
    <>
        <TextInput source="name" label="Name" isRequired fullWidth />
        <SelectInput source="type" label="Type" choices={TYPE_CHOICES} emptyText="Select a type" isRequired fullWidth />
        {showCompany && (
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
                    isRequired={companyRequired}
                    fullWidth
                />
            </ReferenceInput>
        )}
        <FormDataConsumer<ChannelFormValues>>
            {({ formData }) => (isChannelType(formData.type) ? <SettingInputs type={formData.type} /> : null)}
        </FormDataConsumer>
        <ConfigurationObjectError />
        <BooleanInput source="is_enabled" label="Enabled" />
    </>
);
