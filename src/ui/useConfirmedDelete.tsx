import { type ReactNode, useState } from 'react';
import { type RaRecord, useDelete, useNotify } from 'react-admin';

import { DeleteConfirm } from './DeleteConfirm';

export interface ConfirmedDeleteOptions<T extends RaRecord> {
    /** 'server', for "Are you sure you want to delete the server …". */
    noun: string;
    nameOf: (record: T) => string;
    /** The success toast. */
    deleted: string;
    /** The failure toast, given what failed. */
    failed: (error: unknown) => string;
    onDeleted?: (record: T) => void;
    /** What else the delete affects, shown under the question. */
    details?: (record: T) => ReactNode;
    /** The toast for a row without an id (docs/spec.md §8: 'Invalid server ID'); nothing is sent then. */
    invalidId?: string;
}

/**
 * A delete behind the spec's confirmation: `ask(record)` opens it, `confirm` is the dialog to render once. The delete
 * waits for the server (pessimistic), so a refused delete leaves the row and says why.
 */
export function useConfirmedDelete<T extends RaRecord>(resource: string, options: ConfirmedDeleteOptions<T>) {
    const notify = useNotify();
    const [deleteOne, { isPending }] = useDelete<T>();
    const [record, setRecord] = useState<T | null>(null);

    const onConfirm = () => {
        if (!record) return;
        if (!record.id && options.invalidId) {
            setRecord(null);
            notify(options.invalidId, { type: 'error' });
            return;
        }
        deleteOne(
            resource,
            { id: record.id, previousData: record },
            {
                mutationMode: 'pessimistic',
                onSuccess: () => {
                    notify(options.deleted, { type: 'success' });
                    setRecord(null);
                    options.onDeleted?.(record);
                },
                onError: (error) => {
                    notify(options.failed(error), { type: 'error' });
                    setRecord(null);
                },
            }
        );
    };

    const confirm = (
        <DeleteConfirm
            noun={options.noun}
            name={record ? options.nameOf(record) : null}
            loading={isPending}
            details={record && options.details ? options.details(record) : undefined}
            onConfirm={onConfirm}
            onClose={() => setRecord(null)}
        />
    );
    return { ask: setRecord, confirm };
}
