/** Days until a disk is full, from a least-squares line through its used % over time. */

const DAY_MS = 86_400_000;
/** The window the fit looks at. */
export const PROJECTION_WINDOW_MS = 7 * DAY_MS;
/** Growth slower than this (percent points a day) is "not growing": a flat disk's noise must not project a date. */
const MIN_SLOPE_PER_DAY = 0.01;
/** Fewer points, or a shorter span, fits noise rather than growth (the check's warning asks for an hour). */
const MIN_POINTS = 3;
export const MIN_SPAN_MS = 30_000;

export interface UsePoint {
    t: number;
    usedPercent: number;
}

/**
 * Fits used% = a + b·t over the points of the last 7 days (before the newest one) and returns the days from the
 * newest point until the line reaches 100 %: 0 when already there, null when not growing or too few points.
 */
export function daysUntilFull(points: readonly UsePoint[], minSpanMs = MIN_SPAN_MS): number | null {
    if (points.length < MIN_POINTS) return null;
    const newest = points.reduce((m, p) => Math.max(m, p.t), Number.NEGATIVE_INFINITY);
    const window = points.filter((p) => p.t >= newest - PROJECTION_WINDOW_MS);
    if (window.length < MIN_POINTS) return null;
    const oldest = window.reduce((m, p) => Math.min(m, p.t), newest);
    if (newest - oldest < minSpanMs) return null;
    // Days relative to the newest point keep the sums small and exact enough.
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let sxy = 0;
    for (const p of window) {
        const x = (p.t - newest) / DAY_MS;
        sx += x;
        sy += p.usedPercent;
        sxx += x * x;
        sxy += x * p.usedPercent;
    }
    const n = window.length;
    const denom = n * sxx - sx * sx;
    if (denom <= 0) return null;
    const slope = (n * sxy - sx * sy) / denom;
    if (!(slope >= MIN_SLOPE_PER_DAY)) return null;
    const now = (sy - slope * sx) / n; // the line's value at x = 0, the newest point
    return Math.max(0, (100 - now) / slope);
}

/** Rounded for the wire: a hundredth of a day (about 15 minutes). */
export const roundDays = (d: number | null) => (d === null ? null : Math.round(d * 100) / 100);
