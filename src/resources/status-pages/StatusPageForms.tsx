import { Alert, Box, Link } from '@mui/material';
import {
    AutocompleteArrayInput,
    BooleanInput,
    Create,
    Edit,
    FormDataConsumer,
    ReferenceArrayInput,
    ReferenceInput,
    SelectInput,
    SimpleForm,
    TextInput,
    useGetIdentity,
    useNotify,
    useRecordContext,
} from 'react-admin';
import { useNavigate } from 'react-router-dom';

import type { User } from '../../../common/entities';
import type { StatusPage } from '../../../common/status-pages';
import { FormToolbar } from '../../ui/FormToolbar';
import { errorReason } from '../../ui/format';
import { retryUnlessClientError } from '../../ui/retry';
import { StatusPagePreview } from './StatusPagePreview';
import { StatusPageSubscribers } from './StatusPageSubscribers';

const SLUG_HELP = '3 to 40 lowercase letters, digits or dashes: the page is at /status/<slug>';
const KEY_HELP = 'Visitors need ?key=… to open a private page. Leave empty to have one made; it is shown once.';

const failed = (error: unknown) => `Failed! Error: ${errorReason(error)}`;

/** A key the server made for this page comes back in full once: tell the admin the private link then. */
function keyNotice(page: StatusPage): string | null {
    if (!page.access_key || page.access_key.startsWith('••••')) return null;
    return `Private link (shown once): ${window.location.origin}${page.url}?key=${encodeURIComponent(page.access_key)}`;
}

const StatusPageInputs = ({ showCompany }: { showCompany: boolean }) => (
    <>
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
        <TextInput source="title" label="Title" isRequired fullWidth />
        <TextInput source="slug" label="Slug" isRequired helperText={SLUG_HELP} fullWidth />
        <TextInput source="description" label="Description" multiline minRows={2} fullWidth />
        <ReferenceArrayInput
            source="monitor_ids"
            reference="monitors"
            perPage={1000}
            sort={{ field: 'name', order: 'ASC' }}
        >
            <AutocompleteArrayInput
                label="Monitors shown as components"
                optionText="name"
                helperText="Visitors see each monitor's name, its state and its uptime; never its address or errors"
                fullWidth
            />
        </ReferenceArrayInput>
        <BooleanInput source="is_public" label="Public (anyone with the address may read it)" />
        <FormDataConsumer<StatusPage>>
            {({ formData }) =>
                formData.is_public ? null : (
                    <TextInput source="access_key" label="Access key" helperText={KEY_HELP} fullWidth />
                )
            }
        </FormDataConsumer>
    </>
);

/** /status-pages/create */
export const StatusPageCreate = () => {
    const notify = useNotify();
    const navigate = useNavigate();
    const { identity } = useGetIdentity();
    const superAdmin = Boolean((identity as unknown as User | undefined)?.is_super_admin);
    return (
        <Create<StatusPage>
            resource="status-pages"
            title="Add Status Page"
            redirect={false}
            mutationOptions={{
                onSuccess: (page) => {
                    const notice = keyNotice(page);
                    notify(notice ?? 'Status page created', {
                        type: 'success',
                        autoHideDuration: notice ? null : undefined,
                    });
                    navigate(`/status-pages/${page.id}`);
                },
                onError: (error) => notify(failed(error), { type: 'error' }),
            }}
        >
            <SimpleForm
                disableInvalidFormNotification
                defaultValues={{ is_public: true, monitor_ids: [] }}
                toolbar={<FormToolbar />}
            >
                <StatusPageInputs showCompany={superAdmin} />
            </SimpleForm>
        </Create>
    );
};

const OpenLink = () => {
    const page = useRecordContext<StatusPage>();
    if (!page) return null;
    return (
        <Alert severity="info" sx={{ mb: 2 }}>
            Visitors read this page at{' '}
            <Link href={page.url} target="_blank" rel="noreferrer">
                {page.url}
            </Link>
            {page.is_public ? '' : ' with its key'}.
        </Alert>
    );
};

/** /status-pages/{id}: the form beside a preview of what visitors see now. */
export const StatusPageEdit = () => {
    const notify = useNotify();
    return (
        <Edit<StatusPage>
            resource="status-pages"
            title="Edit Status Page"
            mutationMode="pessimistic"
            mutationOptions={{
                onSuccess: (page) => {
                    const notice = keyNotice(page);
                    notify(notice ?? 'Status page saved', {
                        type: 'success',
                        autoHideDuration: notice ? null : undefined,
                    });
                },
                onError: (error) => notify(failed(error), { type: 'error' }),
            }}
        >
            <Box sx={{ p: 2, pb: 0 }}>
                <OpenLink />
            </Box>
            <SimpleForm disableInvalidFormNotification toolbar={<FormToolbar />}>
                <StatusPageInputs showCompany={false} />
            </SimpleForm>
            <StatusPagePreview />
            <StatusPageSubscribers />
        </Edit>
    );
};
