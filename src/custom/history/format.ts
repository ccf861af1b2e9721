/**
 * The 30-day uptime a monitor or configuration record carries (`uptime_30d`: percent, or null without checks);
 * undefined when the record has no such field. The one place that knows the field, so a change of the API's shape
 * is one edit.
 */
export function readUptime30d(record: object | null | undefined): number | null | undefined {
    const value = (record as { uptime_30d?: unknown } | null | undefined)?.uptime_30d;
    if (value === null) return null;
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The days-until-full projection a server's metrics carry (`days_until_full`); undefined when they have none. */
export function readDaysUntilFull(metrics: object | null | undefined): number | null | undefined {
    const value = (metrics as { days_until_full?: unknown } | null | undefined)?.days_until_full;
    return value === null || (typeof value === 'number' && Number.isFinite(value)) ? value : undefined;
}

/** `99.95%`, rounded down so an outage never reads as 100%; N/A when the period has no checks. */
export function formatUptime(percent: number | null | undefined): string {
    if (percent === null || percent === undefined || !Number.isFinite(percent)) return 'N/A';
    if (percent >= 100) return '100%';
    return `${(Math.floor(Math.max(0, percent) * 100) / 100).toFixed(2)}%`;
}

/**
 * `Full in 12 days`, `Full in about 7 h (at 18:40)` within a day (the hour is what an operator plans against), or
 * `Not growing` (null: flat or shrinking); `No projection` when the server sent none (not N/A, which the spec keeps
 * for a missing usage figure in the same row).
 */
export function formatDaysUntilFull(days: number | null | undefined, now = new Date()): string {
    if (days === undefined || (days !== null && !Number.isFinite(days))) return 'No projection';
    if (days === null) return 'Not growing';
    if (days < 1) {
        const minutes = Math.max(1, Math.round(days * 24 * 60));
        const at = new Date(now.getTime() + minutes * 60_000).toLocaleTimeString(undefined, {
            hour: '2-digit',
            minute: '2-digit',
        });
        const span = minutes < 60 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
        return `Full in about ${span} (at ${at})`;
    }
    const whole = Math.floor(days);
    return `Full in ${whole} ${whole === 1 ? 'day' : 'days'}`;
}
