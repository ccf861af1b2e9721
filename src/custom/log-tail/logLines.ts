import type { LogMessage } from '../../../common/entities';

/** A line as the page shows it; `id` keys it in the list. */
export interface LogLine extends LogMessage {
    id: number;
}

/** Level colours (docs/spec.md §2): debug gray, info blue, warn orange, error red. */
/**
 * Level colours (spec: debug gray, info blue, warn orange, error red), in shades dark enough on the light theme's
 * white and light enough on the dark theme's grey to read at WCAG AA contrast (4.5:1).
 */
export const LEVEL_COLORS: Record<LogMessage['level'], string> = {
    debug: '#616161',
    info: '#1565c0',
    warn: '#c2410c',
    error: '#c62828',
};

export const DARK_LEVEL_COLORS: Record<LogMessage['level'], string> = {
    debug: '#bdbdbd',
    info: '#90caf9',
    warn: '#ffb74d',
    error: '#ef9a9a',
};

/** The page keeps the newest lines only, so a long session does not grow without bound. */
export const MAX_LINES = 2000;

/** Time of day of a line, or 'Unknown time' when the timestamp is missing or unreadable. */
export function timeOfDay(timestamp: string | null | undefined): string {
    if (!timestamp) return 'Unknown time';
    const date = new Date(timestamp);
    return Number.isNaN(date.getTime()) ? 'Unknown time' : date.toLocaleTimeString();
}

/** Substring match on the message, ignoring case; an empty filter keeps every line. */
export function filterLines(lines: LogLine[], filter: string): LogLine[] {
    const needle = filter.trim().toLowerCase();
    return needle ? lines.filter((line) => line.message.toLowerCase().includes(needle)) : lines;
}
