import type { LogMessage } from '../../../common/entities';

/** A line as the page shows it; `id` keys it in the list. */
export interface LogLine extends LogMessage {
    id: number;
}

/** Level colours (spec §2): debug gray, info blue, warn orange, error red. */
export const LEVEL_COLORS: Record<LogMessage['level'], string> = {
    debug: '#9e9e9e',
    info: '#1976d2',
    warn: '#ed6c02',
    error: '#d32f2f',
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
