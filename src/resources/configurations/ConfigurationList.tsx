import AddIcon from '@mui/icons-material/Add';
import { Box, Button, Grid, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import { ListBase, Pagination, Title, useListContext } from 'react-admin';

import type { Configuration } from '../../../common/entities';
import { LoadingScreen } from '../../custom/layout/LoadingScreen';
import { retryUnlessClientError } from '../../ui/retry';
import { useRecordDialog } from '../../ui/useSaveDialog';
import { ConfigurationCard } from './ConfigurationCard';
import { ConfigurationCodeButtons } from './ConfigurationCodeButtons';
import { ConfigurationDialog } from './ConfigurationDialog';
import { ConfigurationListFilters } from './ConfigurationListFilters';
import { type ConfigurationListFilter, DEFAULT_LIST_FILTER } from './configurationFilters';
import { useConfigurationAccess } from './useConfigurationAccess';
import { useConfigurationDelete } from './useConfigurationDelete';

/** Cards per page: whole rows at 1, 2, 3 and 4 columns. */
export const PAGE_SIZE = 24;
const PAGE_SIZES = [PAGE_SIZE, PAGE_SIZE * 2, PAGE_SIZE * 4];

/**
 * /configurations: filter bar and card grid. The server filters (search, company, enabled, the health derived from
 * the monitors), sorts and pages; each row carries its servers and monitors for the counts and the badge. The
 * filters live in the page, not the URL, so the route stays plain /configurations. A failed fetch is only logged
 * and the list shows empty (docs/spec.md §8).
 */
export const ConfigurationList = () => (
    <ListBase<Configuration>
        resource="configurations"
        perPage={PAGE_SIZE}
        sort={{ field: 'name', order: 'ASC' }}
        filterDefaultValues={DEFAULT_LIST_FILTER}
        disableSyncWithLocation
        queryOptions={{
            retry: retryUnlessClientError,
            onError: (error) => console.error('Failed to fetch configurations', error),
        }}
    >
        <Title title="Node Configurations" />
        <ConfigurationGrid />
    </ListBase>
);

const ConfigurationGrid = () => {
    const { data, error, isPending, filterValues, page, refetch } = useListContext<Configuration>();
    const { canWrite, isSuperAdmin } = useConfigurationAccess();
    const dialog = useRecordDialog<Configuration>();
    const { ask: askDelete, confirm: deleteConfirm } = useConfigurationDelete(() => refetch());
    const configurations = error ? [] : (data ?? []);
    const companyId = (filterValues as ConfigurationListFilter).company_id;
    // A new page starts at its first card, as react-admin's URL-synced lists do; the pagination sits below the grid.
    const shownPage = useRef(page);
    useEffect(() => {
        if (shownPage.current !== page) window.scrollTo(0, 0);
        shownPage.current = page;
    }, [page]);

    return (
        <Box>
            <Box
                sx={{
                    display: 'flex',
                    flexWrap: 'wrap',
                    gap: 1,
                    justifyContent: 'space-between',
                    alignItems: 'center',
                    mb: 3,
                }}
            >
                <Typography variant="h4" component="h1">
                    Node Configurations
                </Typography>
                <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
                    <ConfigurationCodeButtons
                        canWrite={canWrite}
                        companyId={isSuperAdmin && companyId !== undefined ? String(companyId) : ''}
                        needsCompany={isSuperAdmin && companyId === undefined}
                        onImported={() => refetch()}
                    />
                    {canWrite && (
                        <Button variant="contained" startIcon={<AddIcon />} onClick={dialog.openAdd}>
                            Add Configuration
                        </Button>
                    )}
                </Box>
            </Box>
            <ConfigurationListFilters showCompany={isSuperAdmin} />
            {isPending ? (
                <LoadingScreen />
            ) : configurations.length === 0 ? (
                <Box sx={{ py: 6, textAlign: 'center' }}>
                    <Typography variant="h6" component="p">
                        No configurations found
                    </Typography>
                    <Typography color="text.secondary">Start by adding your first node configuration</Typography>
                </Box>
            ) : (
                <>
                    <Grid container spacing={2}>
                        {configurations.map((configuration) => (
                            <Grid key={configuration.id} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
                                <ConfigurationCard
                                    configuration={configuration}
                                    onEdit={canWrite ? dialog.openEdit : undefined}
                                    onDelete={canWrite ? askDelete : undefined}
                                />
                            </Grid>
                        ))}
                    </Grid>
                    <Pagination rowsPerPageOptions={PAGE_SIZES} sx={{ mt: 2 }} />
                </>
            )}
            {canWrite && (
                <>
                    <ConfigurationDialog
                        open={dialog.open}
                        configuration={dialog.record}
                        onClose={dialog.close}
                        onSaved={() => refetch()}
                    />
                    {deleteConfirm}
                </>
            )}
        </Box>
    );
};
