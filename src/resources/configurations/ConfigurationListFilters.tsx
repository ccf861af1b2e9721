import { useEffect, useRef, useState } from 'react';
import { useListContext } from 'react-admin';

import { ConfigurationFilters } from './ConfigurationFilters';
import {
    type ConfigurationFilterValues,
    type ConfigurationListFilter,
    toFilterValues,
    toListFilter,
} from './configurationFilters';

/** Typing settles for this long before the list is asked again. */
const SEARCH_DEBOUNCE_MS = 400;

/**
 * The filter bar bound to the list's `filter`: the selects apply at once, the search once typing settles. Both send
 * every field the user last set (`wanted`), so a select chosen just as the timer fires is not lost to a filter read
 * before react-admin applied it.
 */
export const ConfigurationListFilters = ({ showCompany }: { showCompany: boolean }) => {
    const { filterValues, setFilters } = useListContext();
    const applied = toFilterValues(filterValues as ConfigurationListFilter);
    const [typed, setTyped] = useState(applied.q);
    const wanted = useRef<ConfigurationFilterValues>(applied);
    const latest = useRef({ applied, setFilters });
    latest.current = { applied, setFilters };

    useEffect(() => {
        const timer = setTimeout(() => {
            if (latest.current.applied.q !== typed.trim()) latest.current.setFilters(toListFilter(wanted.current));
        }, SEARCH_DEBOUNCE_MS);
        return () => clearTimeout(timer);
    }, [typed]);

    return (
        <ConfigurationFilters
            value={{ ...applied, q: typed }}
            onChange={(next) => {
                wanted.current = next;
                setTyped(next.q);
                if (next.q === typed) setFilters(toListFilter(next));
            }}
            showCompany={showCompany}
        />
    );
};
