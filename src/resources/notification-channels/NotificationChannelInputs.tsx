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

import { CHANNEL_TYPES } from '../../../common/channel-types';
import { retryUnlessClientError } from '../../custom/ui/retry';
import type { ChannelFormValues } from './channelForm';

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
 * bot_token (required; a saved one arrives masked and is kept when sent back as is), chat_id (required) and
 * topic_id (optional): each label names its configuration_object key, as spec §2 does.
 */
const TelegramInputs = () => (
    <>
        <TextInput
            source="bot_token"
            label="Bot Token (bot_token)"
            isRequired
            helperText="A saved token is shown masked; leave it as is to keep it"
            fullWidth
        />
        <TextInput source="chat_id" label="Chat ID (chat_id)" isRequired fullWidth />
        <TextInput source="topic_id" label="Topic ID (topic_id)" helperText="Optional" fullWidth />
    </>
);

export interface NotificationChannelInputsProps {
    /** Super admins pick the owning company when adding (a channel never moves company). */
    showCompany: boolean;
}

/** Name, type, the type's settings and Enabled; validation is form-level (see validateChannel). */
export const NotificationChannelInputs = ({ showCompany }: NotificationChannelInputsProps) => (
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
                <SelectInput label="Company" optionText="name" emptyText="Select a company" fullWidth />
            </ReferenceInput>
        )}
        <FormDataConsumer<ChannelFormValues>>
            {({ formData }) => (formData.type === 'telegram' ? <TelegramInputs /> : null)}
        </FormDataConsumer>
        <ConfigurationObjectError />
        <BooleanInput source="is_enabled" label="Enabled" />
    </>
);
