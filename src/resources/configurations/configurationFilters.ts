import type { Configuration } from '../../../common/entities';
import { groupHealth } from '../../../common/health';
import type { HealthFilter } from '../monitors/MonitorHealthSelect';

export interface ConfigurationFilterValues {
    /** Matches name or chain, case-insensitive. */
    q: string;
    /** '' for all companies. */
    company_id: string;
    status: HealthFilter;
    is_enabled: '' | 'true' | 'false';
}

/** The list opens on enabled configurations (spec §9). */
export const DEFAULT_FILTERS: ConfigurationFilterValues = { q: '', company_id: '', status: '', is_enabled: 'true' };

/** The filter bar of spec §2, with the status of spec §4 taken from the configuration's monitors. */
export function filterConfigurations(rows: Configuration[], filters: ConfigurationFilterValues): Configuration[] {
    const needle = filters.q.trim().toLowerCase();
    return rows.filter(
        (c) =>
            (!needle || c.name.toLowerCase().includes(needle) || c.chain.toLowerCase().includes(needle)) &&
            (filters.is_enabled === '' || String(c.is_enabled) === filters.is_enabled) &&
            (filters.company_id === '' || String(c.company_id ?? c.company?.id) === filters.company_id) &&
            (filters.status === '' || groupHealth(c.monitors ?? []).health === filters.status)
    );
}
