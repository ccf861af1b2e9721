import { Autocomplete, Box, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useInput } from 'react-admin';

import type { Chain } from '../../../common/entities';
import { retryUnlessClientError } from '../../ui/retry';
import { useNodeMonitorDataProvider } from '../../providers/dataProvider';

/** The chain directory's names (docs/spec.md §2), cached for the session. */
export function useChains() {
    const dataProvider = useNodeMonitorDataProvider();
    return useQuery<Chain[]>({
        queryKey: ['chains'],
        queryFn: () => dataProvider.getChains(),
        staleTime: 10 * 60_000,
        retry: retryUnlessClientError,
    });
}

export const UNKNOWN_CHAIN =
    'Not in the chain directory: accepted as a private chain, but its address prefix and oracle are unknown';

/** Chain picker: an autocomplete over the directory's chain names that also takes free text. */
export const ChainInput = ({ source = 'chain', label = 'Chain' }: { source?: string; label?: string }) => {
    const { field, fieldState } = useInput({ source });
    const { data: chains = [], isPending } = useChains();
    const prettyNames = useMemo(() => new Map(chains.map((chain) => [chain.name, chain.pretty_name])), [chains]);
    const options = useMemo(() => [...prettyNames.keys()].sort(), [prettyNames]);
    const value = typeof field.value === 'string' ? field.value : '';
    // Private chains exist, so any name is accepted; but say when the directory does not know it.
    const unknown = !isPending && chains.length > 0 && value.trim() !== '' && !prettyNames.has(value.trim());
    return (
        <Autocomplete
            freeSolo
            options={options}
            loading={isPending}
            value={value || null}
            inputValue={value}
            onChange={(_, next) => field.onChange(next ?? '')}
            onInputChange={(_, next) => field.onChange(next)}
            onBlur={field.onBlur}
            renderOption={({ key, ...props }, option) => (
                <Box component="li" key={key} {...props}>
                    {option}
                    {prettyNames.get(option) && prettyNames.get(option) !== option && (
                        <Box component="span" sx={{ color: 'text.secondary', ml: 1 }}>
                            {prettyNames.get(option)}
                        </Box>
                    )}
                </Box>
            )}
            renderInput={(params) => (
                <TextField
                    {...params}
                    name={field.name}
                    label={label}
                    margin="dense"
                    error={fieldState.invalid}
                    helperText={fieldState.error?.message ?? (unknown ? UNKNOWN_CHAIN : ' ')}
                />
            )}
        />
    );
};
