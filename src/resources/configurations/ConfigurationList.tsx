import AddIcon from '@mui/icons-material/Add';
import { Box, Button, Grid, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { Title, useGetList } from 'react-admin';

import type { Configuration } from '../../../common/entities';
import { LoadingScreen } from '../../custom/layout/LoadingScreen';
import { retryUnlessClientError } from '../../custom/ui/retry';
import { ConfigurationCard } from './ConfigurationCard';
import { ConfigurationCodeButtons } from './ConfigurationCodeButtons';
import { ConfigurationDeleteConfirm } from './ConfigurationDeleteConfirm';
import { ConfigurationDialog } from './ConfigurationDialog';
import { ConfigurationFilters } from './ConfigurationFilters';
import { DEFAULT_FILTERS, filterConfigurations } from './configurationFilters';
import { useConfigurationAccess } from './useConfigurationAccess';

/**
 * /configurations: filter bar and card grid. The whole list is read once and filtered here, so the
 * status filter (derived from monitors) and the counts need no extra calls; a failed fetch is only
 * logged and the list shows empty (spec §8).
 */
export const ConfigurationList = () => {
    const { canWrite, isSuperAdmin } = useConfigurationAccess();
    const [filters, setFilters] = useState(DEFAULT_FILTERS);
    const [dialog, setDialog] = useState<{ open: boolean; configuration: Configuration | null }>({
        open: false,
        configuration: null,
    });
    const [toDelete, setToDelete] = useState<Configuration | null>(null);
    const { data, isPending, refetch } = useGetList<Configuration>(
        'configurations',
        { pagination: { page: 1, perPage: 1000 }, sort: { field: 'name', order: 'ASC' } },
        {
            retry: retryUnlessClientError,
            onError: (error) => console.error('Failed to fetch configurations', error),
        }
    );
    const visible = useMemo(() => filterConfigurations(data ?? [], filters), [data, filters]);

    return (
        <Box>
            <Title title="Node Configurations" />
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
                    {(!isSuperAdmin || filters.company_id) && (
                        <ConfigurationCodeButtons
                            canWrite={canWrite}
                            companyId={isSuperAdmin ? filters.company_id : ''}
                            onImported={() => refetch()}
                        />
                    )}
                    {canWrite && (
                        <Button
                            variant="contained"
                            startIcon={<AddIcon />}
                            onClick={() => setDialog({ open: true, configuration: null })}
                        >
                            Add Configuration
                        </Button>
                    )}
                </Box>
            </Box>
            <ConfigurationFilters value={filters} onChange={setFilters} showCompany={isSuperAdmin} />
            {isPending ? (
                <LoadingScreen />
            ) : visible.length === 0 ? (
                <Box sx={{ py: 6, textAlign: 'center' }}>
                    <Typography variant="h6">No configurations found</Typography>
                    <Typography color="text.secondary">Start by adding your first node configuration</Typography>
                </Box>
            ) : (
                <Grid container spacing={2}>
                    {visible.map((configuration) => (
                        <Grid key={configuration.id} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
                            <ConfigurationCard
                                configuration={configuration}
                                onEdit={
                                    canWrite ? (record) => setDialog({ open: true, configuration: record }) : undefined
                                }
                                onDelete={canWrite ? setToDelete : undefined}
                            />
                        </Grid>
                    ))}
                </Grid>
            )}
            {canWrite && (
                <>
                    <ConfigurationDialog
                        open={dialog.open}
                        configuration={dialog.configuration}
                        onClose={() => setDialog({ open: false, configuration: null })}
                        onSaved={() => refetch()}
                    />
                    <ConfigurationDeleteConfirm
                        configuration={toDelete}
                        onClose={(deleted) => {
                            setToDelete(null);
                            if (deleted) refetch();
                        }}
                    />
                </>
            )}
        </Box>
    );
};
