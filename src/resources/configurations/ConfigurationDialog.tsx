import { useNotify } from 'react-admin';

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
import { useSaveDialog } from '../../ui/useSaveDialog';
import { FormDialog } from '../../ui/FormDialog';

export interface ConfigurationDialogProps {
    open: boolean;
    /** The configuration to edit; absent to add one. */
    configuration?: Configuration | null;
    onClose: () => void;
    /** Called after a successful save, before the dialog closes. */
    onSaved?: (configuration: Configuration) => void;
}

const TEXTS = {
    added: 'Configuration created successfully',
    edited: 'Configuration updated successfully',
    addFailed: 'Failed to create configuration',
    editFailed: 'Failed to update configuration',
};

/** Add/Edit Configuration dialog, used by the list and the detail page. */
export const ConfigurationDialog = ({ open, configuration, onClose, onSaved }: ConfigurationDialogProps) => {
    const notify = useNotify();
    const { isSuperAdmin, mustPickCompany } = useConfigurationAccess();
    const { save, editing, error, resetError } = useSaveDialog<Configuration>(
        'configurations',
        configuration,
        TEXTS,
        (saved) => {
            onSaved?.(saved);
            onClose();
        }
    );

    const submit = async (values: Record<string, unknown>) => {
        const data = toConfigurationBody(
            values as ConfigurationFormValues,
            isSuperAdmin,
            Boolean(configuration?.chain_endpoints?.length)
        );
        if (!data) {
            notify(REQUIRED_FIELDS_MESSAGE, { type: 'error' });
            return;
        }
        return save(data as Partial<Configuration>);
    };

    return (
        <FormDialog
            open={open}
            onClose={onClose}
            name="configuration"
            title={editing ? 'Edit Configuration' : 'Add Configuration'}
            recordId={configuration?.id}
            record={
                (configuration ? toConfigurationFormValues(configuration) : configurationDefaults) as Record<
                    string,
                    unknown
                >
            }
            onSubmit={submit}
            resource="configurations"
            error={error}
            onExited={resetError}
            saveLabel={editing ? 'Save' : 'Add'}
        >
            <ConfigurationInputs withCompany={isSuperAdmin} companyRequired={mustPickCompany} />
        </FormDialog>
    );
};
