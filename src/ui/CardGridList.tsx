import AddIcon from '@mui/icons-material/Add';
import { Box, Button, Grid, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { ListBase, type RaRecord, Title, useListContext, useNotify } from 'react-admin';

import { LoadingScreen } from '../custom/layout/LoadingScreen';
import { errorReason } from './format';
import { retryUnlessClientError } from './retry';
import { useConfirmedDelete } from './useConfirmedDelete';
import { useRecordDialog } from './useSaveDialog';

export interface CardActions<T> {
    onEdit: (record: T) => void;
    onDelete: (record: T) => void;
}

export interface DialogState<T> {
    open: boolean;
    record: T | null;
    onClose: () => void;
    onSaved: () => void;
}

/** The words a card-grid page uses; the spec fixes them per resource. */
export interface CardGridTexts {
    title: string;
    /** Singular, for the delete confirmation: 'company'. */
    noun: string;
    add: string;
    empty: string;
    fetchFailed: string;
    deleted: string;
    deleteFailed: string;
}

export interface CardGridListProps<T extends RaRecord> {
    resource: string;
    sortField: string;
    texts: CardGridTexts;
    nameOf: (record: T) => string;
    renderCard: (record: T, actions: CardActions<T>) => ReactNode;
    renderDialog: (state: DialogState<T>) => ReactNode;
}

/** A resource page of cards with an Add/Edit dialog and a confirmed delete (companies, users). */
export function CardGridList<T extends RaRecord>(props: CardGridListProps<T>) {
    const notify = useNotify();
    return (
        <ListBase<T>
            resource={props.resource}
            perPage={1000}
            sort={{ field: props.sortField, order: 'ASC' }}
            disableSyncWithLocation
            queryOptions={{
                retry: retryUnlessClientError,
                onError: (error) => notify(`${props.texts.fetchFailed} ${errorReason(error)}`, { type: 'error' }),
            }}
        >
            <Title title={props.texts.title} />
            <CardGrid {...props} />
        </ListBase>
    );
}

function CardGrid<T extends RaRecord>({ resource, texts, nameOf, renderCard, renderDialog }: CardGridListProps<T>) {
    const { data, isPending, refetch } = useListContext<T>();
    const dialog = useRecordDialog<T>();
    const remove = useConfirmedDelete<T>(resource, {
        noun: texts.noun,
        nameOf,
        deleted: texts.deleted,
        failed: (error) => `${texts.deleteFailed} ${errorReason(error)}`,
        onDeleted: () => refetch(),
    });

    return (
        <Box>
            <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 3 }}>
                <Typography variant="h4" component="h1">
                    {texts.title}
                </Typography>
                <Button variant="contained" startIcon={<AddIcon />} onClick={dialog.openAdd}>
                    {texts.add}
                </Button>
            </Box>
            {isPending ? (
                <LoadingScreen />
            ) : !data || data.length === 0 ? (
                <Typography color="text.secondary" sx={{ py: 6, textAlign: 'center' }}>
                    {texts.empty}
                </Typography>
            ) : (
                <Grid container spacing={2}>
                    {data.map((record) => (
                        <Grid key={record.id} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
                            {renderCard(record, { onEdit: dialog.openEdit, onDelete: remove.ask })}
                        </Grid>
                    ))}
                </Grid>
            )}
            {renderDialog({
                open: dialog.open,
                record: dialog.record,
                onClose: dialog.close,
                onSaved: () => refetch(),
            })}
            {remove.confirm}
        </Box>
    );
}
