import AddIcon from '@mui/icons-material/Add';
import { Box, Button, Grid, Typography } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { ListBase, type RaRecord, Title, useDelete, useListContext, useNotify } from 'react-admin';

import { LoadingScreen } from '../layout/LoadingScreen';
import { DeleteConfirm } from './DeleteConfirm';
import { errorReason } from './format';
import { retryUnlessClientError } from './retry';

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
    const notify = useNotify();
    const [deleteOne, { isPending: deleting }] = useDelete<T>();
    const [dialog, setDialog] = useState<{ open: boolean; record: T | null }>({ open: false, record: null });
    const [toDelete, setToDelete] = useState<T | null>(null);

    const confirmDelete = () => {
        if (!toDelete) return;
        deleteOne(
            resource,
            { id: toDelete.id, previousData: toDelete },
            {
                mutationMode: 'pessimistic',
                onSuccess: () => {
                    notify(texts.deleted, { type: 'success' });
                    setToDelete(null);
                    refetch();
                },
                onError: (error) => {
                    notify(`${texts.deleteFailed} ${errorReason(error)}`, { type: 'error' });
                    setToDelete(null);
                },
            }
        );
    };

    return (
        <Box>
            <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 3 }}>
                <Typography variant="h4" component="h1">
                    {texts.title}
                </Typography>
                <Button
                    variant="contained"
                    startIcon={<AddIcon />}
                    onClick={() => setDialog({ open: true, record: null })}
                >
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
                            {renderCard(record, {
                                onEdit: (r) => setDialog({ open: true, record: r }),
                                onDelete: setToDelete,
                            })}
                        </Grid>
                    ))}
                </Grid>
            )}
            {renderDialog({
                open: dialog.open,
                record: dialog.record,
                onClose: () => setDialog({ open: false, record: null }),
                onSaved: () => refetch(),
            })}
            <DeleteConfirm
                noun={texts.noun}
                name={toDelete ? nameOf(toDelete) : null}
                loading={deleting}
                onConfirm={confirmDelete}
                onClose={() => setToDelete(null)}
            />
        </Box>
    );
}
