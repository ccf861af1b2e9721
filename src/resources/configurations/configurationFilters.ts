import type { HealthFilter } from '../monitors/MonitorHealthSelect';

/** What the filter bar's fields hold: select values are strings, '' meaning all. */
export interface ConfigurationFilterValues {
    /** Matches name or chain, case-insensitive. */
    q: string;
    /** '' for all companies. */
    company_id: string;
    status: HealthFilter;
    is_enabled: '' | 'true' | 'false';
}

/**
 * The list `filter` the server reads (server/repositories/configurations.ts `configurationList`): q on name or chain,
 * company id, enabled flag and the health derived from the monitors. A missing key means all.
 */
export interface ConfigurationListFilter {
    q?: string;
    company_id?: number;
    status?: Exclude<HealthFilter, ''>;
    is_enabled?: boolean;
}

/** The list opens on enabled configurations (docs/spec.md §2, §9). */
export const DEFAULT_LIST_FILTER: ConfigurationListFilter = { is_enabled: true };

/** The bar's fields for a list filter. */
export function toFilterValues(filter: ConfigurationListFilter): ConfigurationFilterValues {
    return {
        q: filter.q ?? '',
        company_id: filter.company_id === undefined ? '' : String(filter.company_id),
        status: filter.status ?? '',
        is_enabled: filter.is_enabled === undefined ? '' : filter.is_enabled ? 'true' : 'false',
    };
}

/** The list filter for the bar's fields; empty fields are left out, so the server applies no condition for them. */
export function toListFilter(values: ConfigurationFilterValues): ConfigurationListFilter {
    const filter: ConfigurationListFilter = {};
    const q = values.q.trim();
    if (q) filter.q = q;
    if (values.company_id) filter.company_id = Number(values.company_id);
    if (values.status) filter.status = values.status;
    if (values.is_enabled) filter.is_enabled = values.is_enabled === 'true';
    return filter;
}
