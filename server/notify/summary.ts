import { formatDuration } from '../../common/duration';
import { escapeHtml } from './format';
import { iconOf } from './message';
import type { NotificationSubject } from './record';

/** A digest holds a few dozen of these in one Telegram message, so each stays short. */
export const SUMMARY_MAX = 300;
/** Names are user-typed; one very long name must not crowd out the problem, which says most. */
const NAME_MAX = 60;

/**
 * What a line needs of a notification. `kind` is any string: kinds are added over time (flapping), and a line for
 * one it does not know still goes out, marked ⚠️ and named.
 */
export interface SummarySource {
    kind: string;
    incidentId: string;
    since: number;
    durationMs?: number;
    message: string | null;
}

/**
 * `raw` as one line of HTML of at most `max` characters: whitespace runs (newlines too) become one space, and a cut
 * falls never inside an entity nor a surrogate pair, marked with an ellipsis.
 */
export function clipEscaped(raw: string, max: number): string {
    const flat = raw.replace(/\s+/g, ' ').trim();
    const full = escapeHtml(flat);
    if (full.length <= max) return full;
    let out = '';
    for (const ch of flat) {
        const piece = escapeHtml(ch);
        if (out.length + piece.length + 1 > max) break;
        out += piece;
    }
    return `${out}…`;
}

/** One compact line about a notification, e.g. `🔴 Mainnet · validator-1 · Block height: stalled · #1a2b3c4d`. */
export function summaryLine(target: NotificationSubject, n: SummarySource, nowMs: number): string {
    const icon = iconOf(n.kind);
    const lead = icon ?? `⚠️ ${clipEscaped(n.kind, 20)}:`;
    const where = [target.configuration.name, target.server?.name ?? '—', target.name]
        .map((name) => clipEscaped(name, NAME_MAX))
        .join(' · ');
    const lasted = formatDuration(n.durationMs ?? nowMs - n.since);
    const what =
        n.kind === 'recovery'
            ? `recovered after ${lasted}`
            : n.kind === 'warning-cleared'
              ? `warning cleared after ${lasted}`
              : n.message;
    const id = ` · #${escapeHtml(n.incidentId.slice(0, 8))}`;
    const head = `${lead} ${where}: `;
    const room = Math.max(20, SUMMARY_MAX - head.length - id.length);
    return `${head}${clipEscaped(what ?? 'no message', room)}${id}`;
}
