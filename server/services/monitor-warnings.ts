import type { Monitor } from '../../common/entities';
import { CHECKS } from '../engine/checks';

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
    if (!monitor.configuration) return [];
    return CHECKS[monitor.type].saveWarnings?.(settingsOf(monitor), monitor.configuration.chain) ?? [];
}

/** The monitor answer, with `warnings` beside the spec's fields only when there are any. */
export function withWarnings(monitor: Monitor): Monitor & { warnings?: string[] } {
    const warnings = monitorWarnings(monitor);
    return warnings.length ? { ...monitor, warnings } : monitor;
}
