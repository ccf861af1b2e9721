import type { Monitor } from '../../common/entities';
import { stringSetting } from '../engine/checks/common';
import { ORACLE_MISS_PATHS, oracleMissPathTemplate } from '../engine/checks/oracle-paths';

function settingsOf(monitor: Monitor): Record<string, unknown> {
    try {
        const v: unknown = JSON.parse(monitor.configuration_object ?? '{}');
        return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
    } catch {
        return {};
    }
}

/**
 * What a saved monitor cannot do as configured, said at save time instead of by its first check. The monitor is
 * saved all the same: a private chain may need its path filled in later.
 */
export function monitorWarnings(monitor: Monitor): string[] {
    const warnings: string[] = [];
    if (monitor.type === 'priceFeederMissCount' && monitor.configuration) {
        // As the check itself reads it (server/engine/checks/priceFeederMissCount.ts).
        const path = oracleMissPathTemplate(
            monitor.configuration.chain,
            stringSetting(settingsOf(monitor), 'oracle_path')
        );
        if (!path) {
            warnings.push(
                `No oracle miss-counter path is known for chain ${monitor.configuration.chain} (known: ${Object.keys(ORACLE_MISS_PATHS).join(', ')}): set oracle_path on the monitor, or it will stay in Error`
            );
        }
    }
    return warnings;
}

/** The monitor answer, with `warnings` beside the spec's fields only when there are any. */
export function withWarnings(monitor: Monitor): Monitor & { warnings?: string[] } {
    const warnings = monitorWarnings(monitor);
    return warnings.length ? { ...monitor, warnings } : monitor;
}
