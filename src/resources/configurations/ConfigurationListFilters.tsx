import { useEffect, useRef, useState } from 'react';
import { useListContext } from 'react-admin';

import { ConfigurationFilters } from './ConfigurationFilters';
import { type ConfigurationListFilter, toFilterValues, toListFilter } from './configurationFilters';

/** Typing settles for this long before the list is asked again. */
const SEARCH_DEBOUNCE_MS = 400;

/**
 * The filter bar bound to the list's `filter`: the selects apply at once, the search once typing settles. The timer
 * reads the list's filter when it fires, so a select changed meanwhile is kept.
 */
export const ConfigurationListFilters = ({ showCompany }: { showCompany: boolean }) => {
    const { filterValues, setFilters } = useListContext();
    const applied = toFilterValues(filterValues as ConfigurationListFilter);
    const [typed, setTyped] = useState(applied.q);
    const latest = useRef({ filterValues, setFilters });
    latest.current = { filterValues, setFilters };

    useEffect(() => {
        const timer = setTimeout(() => {
            const current = toFilterValues(latest.current.filterValues as ConfigurationListFilter);
            if (current.q !== typed.trim()) latest.current.setFilters(toListFilter({ ...current, q: typed }));
        }, SEARCH_DEBOUNCE_MS);
        return () => clearTimeout(timer);
    }, [typed]);

    return (
        <ConfigurationFilters
            value={{ ...applied, q: typed }}
            onChange={(next) => {
                setTyped(next.q);
                if (next.q === typed) setFilters(toListFilter(next));
            }}
            showCompany={showCompany}
        />
    );
};
