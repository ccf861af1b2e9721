import { useState } from 'react';
import { type RaRecord, useCreate, useNotify, useUpdate } from 'react-admin';

import { withServerMessage } from './format';

/** Which record an Add/Edit dialog is open for: `record` null means Add. */
export function useRecordDialog<T extends RaRecord>() {
    const [state, setState] = useState<{ open: boolean; record: T | null }>({ open: false, record: null });
    return {
        open: state.open,
        record: state.record,
        openAdd: () => setState({ open: true, record: null }),
        openEdit: (record: T) => setState({ open: true, record }),
        close: () => setState({ open: false, record: null }),
    };
}

/** The spec's toasts of one Add/Edit dialog. */
export interface SaveTexts {
    added: string;
    edited: string;
    addFailed: string;
    editFailed: string;
}

/** The field errors of a 400 (`{errors: {name: '…'}}`), for react-admin's form to show under each input. */
export const fieldErrors = (error: unknown) =>
    (error as { body?: { errors?: Record<string, string> } } | null)?.body?.errors;

/**
 * The submit of an Add/Edit dialog: creates, or updates `record` (pessimistic: the dialog waits for the server), says
 * so with the spec's toast and calls `onSaved`; a refusal sets `error` to the spec's failure text with the server's
 * reason, for the dialog to show above its buttons (DialogError; `resetError` once it has closed), and returns the
 * field errors, so react-admin's `Form` keeps what was typed and marks the fields.
 */
export function useSaveDialog<T extends RaRecord>(
    resource: string,
    record: T | null | undefined,
    texts: SaveTexts,
    onSaved: (saved: T) => void
) {
    const notify = useNotify();
    const [create, { isPending: creating }] = useCreate<T>();
    const [update, { isPending: updating }] = useUpdate<T>();
    const editing = !!record;
    const [error, setError] = useState<string | null>(null);

    const save = async (data: Partial<T>): Promise<Record<string, string> | undefined> => {
        setError(null);
        try {
            const saved = record
                ? await update(
                      resource,
                      { id: record.id, data, previousData: record },
                      { mutationMode: 'pessimistic', returnPromise: true }
                  )
                : await create(resource, { data }, { returnPromise: true });
            notify(editing ? texts.edited : texts.added, { type: 'success' });
            onSaved(saved as T);
            return undefined;
        } catch (error) {
            setError(withServerMessage(editing ? texts.editFailed : texts.addFailed, error));
            return fieldErrors(error);
        }
    };
    return { save, editing, saving: creating || updating, error, resetError: () => setError(null) };
}
