export const WEEK_MS = 7 * 24 * 3600_000;

/** A span of time in ms since epoch, end exclusive. */
export interface Span {
    startsAt: number;
    endsAt: number;
}

/**
 * The occurrence of a window that is on now or comes next, or null once none is left. A weekly window recurs at the
 * same UTC weekday and time span, every week from its first `starts_at`; it lasts less than a week, so occurrences
 * never overlap.
 */
export function occurrence(w: Span & { repeatWeekly: boolean }, nowMs: number): Span | null {
    if (!w.repeatWeekly || nowMs < w.startsAt)
        return nowMs < w.endsAt ? { startsAt: w.startsAt, endsAt: w.endsAt } : null;
    const length = w.endsAt - w.startsAt;
    const startsAt = w.startsAt + Math.floor((nowMs - w.startsAt) / WEEK_MS) * WEEK_MS;
    return nowMs < startsAt + length
        ? { startsAt, endsAt: startsAt + length }
        : { startsAt: startsAt + WEEK_MS, endsAt: startsAt + WEEK_MS + length };
}

export const isOn = (span: Span | null, nowMs: number): span is Span =>
    span !== null && span.startsAt <= nowMs && nowMs < span.endsAt;
