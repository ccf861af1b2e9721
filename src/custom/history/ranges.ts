import type { HistoryRange } from '../../providers/history';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The range picker's choices (15 min to 1 y), each ending now. */
export const RANGES = [
    { key: '15m', label: '15 min', ms: HOUR / 4, words: 'the last 15 minutes' },
    { key: '1h', label: '1 h', ms: HOUR, words: 'the last hour' },
    { key: '24h', label: '24 h', ms: DAY, words: 'the last 24 hours' },
    { key: '7d', label: '7 d', ms: 7 * DAY, words: 'the last 7 days' },
    { key: '30d', label: '30 d', ms: 30 * DAY, words: 'the last 30 days' },
    { key: '90d', label: '90 d', ms: 90 * DAY, words: 'the last 90 days' },
    { key: '1y', label: '1 y', ms: 365 * DAY, words: 'the last year' },
] as const;

export type RangeKey = (typeof RANGES)[number]['key'];

export const rangeOf = (key: RangeKey) => RANGES.find((range) => range.key === key) ?? RANGES[2];

/**
 * The shortest range, up to `preferred`, that still holds data beginning at `oldestMs`: a monitor or disk a few
 * minutes old gets a 15-minute axis, not a week with a sliver of data at its end.
 */
export function fittingRange(preferred: RangeKey, oldestMs: number, now = Date.now()): RangeKey {
    const limit = rangeOf(preferred).ms;
    const fit = RANGES.find((range) => range.ms <= limit && range.ms >= now - oldestMs);
    return fit?.key ?? preferred;
}

/** The ISO from/to of a choice, computed when the request is made so a refresh moves the window along. */
export function rangeEndingNow(key: RangeKey, now = Date.now()): HistoryRange {
    return { from: new Date(now - rangeOf(key).ms).toISOString(), to: new Date(now).toISOString() };
}
