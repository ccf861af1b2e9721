import { Button } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { useNotify } from 'react-admin';

import type { NotificationChannel } from '../../../common/entities';
import { withServerMessage } from '../../ui/format';
import { useSaveDialog } from '../../ui/useSaveDialog';
import { FormDialog } from '../../ui/FormDialog';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';
import { NotificationChannelInputs } from './NotificationChannelInputs';
import {
    type ChannelFormValues,
    channelDefaults,
    toChannelBody,
    toChannelFormValues,
    validateChannel,
} from './channelForm';

export const ADDED = 'Notification channel added successfully!';
export const ADD_FAILED = 'Failed to add notification channel!';
export const UPDATED = 'Notification channel updated successfully!';
export const UPDATE_FAILED = 'Failed to update notification channel!';
export const TESTED = 'Notification channel tested successfully!';
export const TEST_FAILED = 'Failed to test notification channel!';

const TEXTS = { added: ADDED, edited: UPDATED, addFailed: ADD_FAILED, editFailed: UPDATE_FAILED };

export interface NotificationChannelDialogProps {
    open: boolean;
    /** The channel to edit; absent to add one. */
    channel?: NotificationChannel | null;
    /** Shows the Company select (super admins). */
    showCompany: boolean;
    /** Preselected company of a new channel: the signed-in user's. */
    defaultCompanyId?: number | null;
    onClose: () => void;
    /** Called after a successful save, before the dialog closes. */
    onSaved?: () => void;
}

/** Add Notification Channel dialog, also used (same title) to edit: Cancel, Test and Add/Edit. */
export const NotificationChannelDialog = ({
    open,
    channel,
    showCompany,
    defaultCompanyId = null,
    onClose,
    onSaved,
}: NotificationChannelDialogProps) => {
    const notify = useNotify();
    const dataProvider = useNodeMonitorDataProvider();
    const editing = !!channel;
    const { save, error, resetError } = useSaveDialog<NotificationChannel>(
        'notification-channels',
        channel,
        TEXTS,
        () => {
            onSaved?.();
            onClose();
        }
    );
    const probe = useMutation({
        mutationFn: (values: ChannelFormValues) =>
            dataProvider.testNotificationChannel({
                ...toChannelBody(values),
                // A saved channel's token is masked in the form: the id lets the server use the stored one.
                ...(channel ? { id: channel.id } : {}),
            }),
    });
    // Both buttons submit the form (so both validate); this says which one was pressed.
    const action = useRef<'save' | 'test'>('save');
    // The API has no default company for a super admin without one: the form asks before anything is sent.
    const companyRequired = showCompany && !editing && defaultCompanyId === null;

    const test = async (values: ChannelFormValues) => {
        try {
            await probe.mutateAsync(values);
            notify(TESTED, { type: 'success' });
        } catch (error) {
            notify(withServerMessage(TEST_FAILED, error), { type: 'error' });
        }
    };

    const submit = (values: Record<string, unknown>) =>
        action.current === 'test'
            ? test(values as unknown as ChannelFormValues)
            : save(toChannelBody(values as unknown as ChannelFormValues) as Partial<NotificationChannel>);

    return (
        <FormDialog
            open={open}
            onClose={onClose}
            name="channel"
            // Spec §2: the dialog is titled Add Notification Channel, and edit uses the same dialog.
            title="Add Notification Channel"
            recordId={channel?.id}
            record={channel ? toChannelFormValues(channel) : channelDefaults(defaultCompanyId)}
            // A test sends to the channel only and needs no company; saving does.
            validate={(values) =>
                validateChannel(values as unknown as ChannelFormValues, companyRequired && action.current === 'save')
            }
            onSubmit={submit}
            resource="notification-channels"
            error={error}
            onExited={resetError}
            actions={
                <Button type="submit" disabled={probe.isPending} onClick={() => (action.current = 'test')}>
                    Test
                </Button>
            }
            saveLabel={editing ? 'Edit' : 'Add'}
            onSaveClick={() => (action.current = 'save')}
        >
            <NotificationChannelInputs showCompany={showCompany && !editing} companyRequired={companyRequired} />
        </FormDialog>
    );
};
