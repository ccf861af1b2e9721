import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { type RaRecord, ShowBase, Title, useNotify } from 'react-admin';

import { LoadingScreen } from '../custom/layout/LoadingScreen';
import { retryUnlessClientError } from './retry';

export interface RecordShowProps<T extends RaRecord> {
    resource: string;
    /** What the record is, for '<Noun> not found' and that page's title: 'Company'. */
    noun: string;
    /** The toast of a failed fetch. */
    failedText: string;
    /** The overview of the record found. */
    children: (record: T) => ReactNode;
}

/**
 * A record's overview page (/{resource}/{id}) on react-admin's ShowBase: the loading screen while it loads, then
 * the overview, or '<Noun> not found' when there is none; a failed fetch toasts `failedText` and stays.
 */
export function RecordShow<T extends RaRecord>({ resource, noun, failedText, children }: RecordShowProps<T>) {
    const notify = useNotify();
    return (
        <ShowBase<T>
            resource={resource}
            queryOptions={{ retry: retryUnlessClientError, onError: () => notify(failedText, { type: 'error' }) }}
            loading={<LoadingScreen />}
            render={({ record }) =>
                record ? (
                    children(record)
                ) : (
                    <Box sx={{ p: 2 }}>
                        <Title title={noun} />
                        <Typography variant="h5">{noun} not found</Typography>
                    </Box>
                )
            }
        />
    );
}
