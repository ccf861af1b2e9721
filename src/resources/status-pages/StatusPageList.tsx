import { BooleanField, CreateButton, Datagrid, FunctionField, List, TextField, TopToolbar } from 'react-admin';

import type { StatusPage } from '../../../common/status-pages';

/** /status-pages: each page with its public address; a row opens the form and its preview. */
export const StatusPageList = () => (
    <List
        resource="status-pages"
        title="Status pages"
        sort={{ field: 'title', order: 'ASC' }}
        perPage={25}
        actions={
            <TopToolbar>
                <CreateButton label="Add status page" />
            </TopToolbar>
        }
        empty={false}
    >
        <Datagrid rowClick="edit" bulkActionButtons={false}>
            <TextField source="title" label="Title" />
            <FunctionField<StatusPage>
                label="Address"
                render={(page) => (
                    // A real link, so the page opens for a look without leaving the console.
                    <a href={page.url} target="_blank" rel="noreferrer" onClick={(e) => e.stopPropagation()}>
                        {page.url}
                    </a>
                )}
            />
            <BooleanField source="is_public" label="Public" />
            <FunctionField<StatusPage> label="Components" render={(page) => page.monitor_ids.length} />
        </Datagrid>
    </List>
);
