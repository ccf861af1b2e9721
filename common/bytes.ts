const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Bytes in base 1024 with two decimals (docs/spec.md §9): 1073741824 → "1.00 GB"; missing → "N/A". */
export function formatBytes(bytes: number | null | undefined): string {
    if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return 'N/A';
    let value = Math.max(0, bytes);
    let unit = 0;
    while (value >= 1024 && unit < UNITS.length - 1) {
        value /= 1024;
        unit++;
    }
    return `${value.toFixed(2)} ${UNITS[unit]}`;
}

/** "42% (1.00 GB / 2.00 GB)"; N/A when the percentage is missing. */
export function formatUsage(
    percent: number | null | undefined,
    used: number | null | undefined,
    total: number | null | undefined
): string {
    if (percent === null || percent === undefined || !Number.isFinite(percent)) return 'N/A';
    return `${Math.round(percent)}% (${formatBytes(used)} / ${formatBytes(total)})`;
}
