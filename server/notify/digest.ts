import { plain } from './format';
import { clipEscaped, SUMMARY_MAX } from './summary';

/**
 * Telegram refuses a text over 4096 characters (counted after entity parsing, so the HTML length used here is an
 * upper bound); the margin covers the heading and any counting difference.
 */
export const DIGEST_MAX_CHARS = 4000;

export interface DigestRow {
    id: number;
    text: string;
    summary: string | null;
}

export interface Digest {
    text: string;
    /** The rows the text stands for: a prefix of the input, in its order. */
    rowIds: number[];
}

const heading = (count: number) => `📋 <b>DIGEST</b>: ${count} notification${count === 1 ? '' : 's'}`;

function lineOf(row: DigestRow): string {
    // A summary is built short and tag-free; anything else (a row without one, or one cut off elsewhere) is reduced.
    if (row.summary && row.summary.length <= SUMMARY_MAX) return row.summary;
    const html = row.summary || (row.text.split('\n', 1)[0] ?? '');
    // Reduced to its text and escaped again: a first line cut out of a message may hold a tag that closes on a later
    // line, and Telegram refuses a whole message (for good) over one unbalanced tag.
    return clipEscaped(plain(html).trim() || `notification #${row.id}`, SUMMARY_MAX);
}

/**
 * One message standing for as many of `rows` (in id order) as fit under DIGEST_MAX_CHARS, at least the first. The
 * rows left out are for the next message: the caller marks only `rowIds` sent, once Telegram accepted the text.
 */
export function buildDigest(rows: readonly DigestRow[], maxChars = DIGEST_MAX_CHARS): Digest {
    // Sized for the largest count it may state, so that the heading of the final count fits as well.
    let length = heading(rows.length).length + 1;
    const lines: string[] = [];
    const rowIds: number[] = [];
    for (const row of rows) {
        const line = lineOf(row);
        if (rowIds.length > 0 && length + 1 + line.length > maxChars) break;
        lines.push(line);
        rowIds.push(row.id);
        length += 1 + line.length;
    }
    return { text: [heading(rowIds.length), '', ...lines].join('\n'), rowIds };
}
