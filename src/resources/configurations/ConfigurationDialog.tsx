import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { Form, SaveButton, useCreate, useNotify, useUpdate } from 'react-admin';

import type { Configuration } from '../../../common/entities';
import {
    type ConfigurationFormValues,
    ConfigurationInputs,
    configurationDefaults,
    REQUIRED_FIELDS_MESSAGE,
    toConfigurationBody,
    toConfigurationFormValues,
} from './ConfigurationInputs';
import { useConfigurationAccess } from './useConfigurationAccess';
import { withServerMessage } from '../../custom/ui/format';

export interface ConfigurationDialogProps {
    open: boolean;
    /** The configuration to edit; absent to add one. */
    configuration?: Configuration | null;
    onClose: () => void;
    /** Called after a successful save, before the dialog closes. */
    onSaved?: (configuration: Configuration) => void;
}

/** Add/Edit Configuration dialog, used by the list and the detail page. */
export const ConfigurationDialog = ({ open, configuration, onClose, onSaved }: ConfigurationDialogProps) => {
    const notify = useNotify();
    const { isSuperAdmin, mustPickCompany } = useConfigurationAccess();
    const [create] = useCreate<Configuration>();
    const [update] = useUpdate<Configuration>();
    const editing = !!configuration;

    const submit = async (values: Record<string, unknown>) => {
        const data = toConfigurationBody(values as ConfigurationFormValues, isSuperAdmin);
        if (!data) {
            notify(REQUIRED_FIELDS_MESSAGE, { type: 'error' });
            return;
        }
        try {
            const saved = configuration
                ? await update(
                      'configurations',
                      { id: configuration.id, data, previousData: configuration },
                      { mutationMode: 'pessimistic', returnPromise: true }
                  )
                : await create('configurations', { data }, { returnPromise: true });
            notify(editing ? 'Configuration updated successfully' : 'Configuration created successfully', {
                type: 'success',
            });
            onSaved?.(saved as Configuration);
            onClose();
        } catch (error) {
            notify(
                withServerMessage(editing ? 'Failed to update configuration' : 'Failed to create configuration', error),
                { type: 'error' }
            );
            return (error as { body?: { errors?: Record<string, string> } }).body?.errors;
        }
    };

    return (
        <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="configuration-dialog-title">
            <Form
                disableInvalidFormNotification
                key={configuration?.id ?? 'new'}
                record={
                    (configuration ? toConfigurationFormValues(configuration) : configurationDefaults) as Record<
                        string,
                        unknown
                    >
                }
                onSubmit={submit}
                resource="configurations"
            >
                <DialogTitle id="configuration-dialog-title">
                    {editing ? 'Edit Configuration' : 'Add Configuration'}
                </DialogTitle>
                <DialogContent>
                    <ConfigurationInputs withCompany={isSuperAdmin} companyRequired={mustPickCompany} />
                </DialogContent>
                <DialogActions>
                    <Button onClick={onClose}>Cancel</Button>
                    <SaveButton label={editing ? 'Save' : 'Add'} alwaysEnable />
                </DialogActions>
            </Form>
        </Dialog>
    );
};
