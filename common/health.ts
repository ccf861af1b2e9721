/** Monitor health as the spec (§4) derives it from the stored status and last error. */
export type Health = 'healthy' | 'warning' | 'error';

export interface HealthFields {
    status: boolean;
    last_error?: string | null;
}

export function monitorHealth(m: HealthFields): Health {
    if (!m.status) return 'error';
    return m.last_error ? 'warning' : 'healthy';
}

export interface GroupHealth {
    health: Health;
    /** Number of failing monitors for `error`, of monitors with a last error for `warning`, 0 for `healthy`. */
    count: number;
}

/** Group badge: error if any fails (count of failing), else warning if any has a last error, else healthy. */
export function groupHealth(monitors: HealthFields[]): GroupHealth {
    const failing = monitors.filter((m) => monitorHealth(m) === 'error').length;
    if (failing > 0) return { health: 'error', count: failing };
    const warnings = monitors.filter((m) => monitorHealth(m) === 'warning').length;
    if (warnings > 0) return { health: 'warning', count: warnings };
    return { health: 'healthy', count: 0 };
}
