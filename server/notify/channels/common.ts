import { HttpError, redact } from '../../clients/http';
import { plain } from '../format';
import { clipEscaped } from '../summary';
import type { NotifyContext, SendResult } from './types';

/** `text` cut to `max` characters, marked with an ellipsis; never inside a surrogate pair. */
export function clip(text: string, max: number): string {
    if (text.length <= max) return text;
    let out = '';
    for (const ch of text) {
        if (out.length + ch.length + 1 > max) break;
        out += ch;
    }
    return `${out}…`;
}

/** A digest in plain text: a heading and one line per row, as many as fit in `max` characters. */
export function plainDigest(
    lines: readonly { id: number; text: string; summary: string | null }[],
    max: number
): { heading: string; body: string; count: number } {
    const rows: string[] = [];
    let length = 40;
    for (const row of lines) {
        const line = plain(clipEscaped(plain(row.summary || (row.text.split('\n', 1)[0] ?? '')), 300));
        if (rows.length > 0 && length + 1 + line.length > max) break;
        rows.push(line);
        length += 1 + line.length;
    }
    const count = rows.length;
    return { heading: `DIGEST: ${count} notification${count === 1 ? '' : 's'}`, body: rows.join('\n'), count };
}

/** A failure to reach an HTTP destination at all, as a send result. */
export function unreachable(err: unknown, service: string): SendResult {
    const reason = redact(err instanceof HttpError ? err.reason : 'failed');
    const refused = err instanceof HttpError && (err.kind === 'refused' || err.kind === 'invalid_url');
    // A refusal is the console's own decision: said as one sentence, not as a failure to connect.
    const error = !refused
        ? `${service} could not be reached: ${reason}`
        : err.kind === 'refused'
          ? `${service} was not contacted: ${reason.replace(/^is refused: /, '')}`
          : `${service} was not contacted: its URL ${reason}`;
    return refused ? { outcome: 'permanent', error } : { outcome: 'transient', error, unreachable: true };
}

/** Seconds from a Retry-After header (seconds form), or undefined. */
export function retryAfterHeader(headers: Record<string, string>): number | undefined {
    const v = Number(headers['retry-after']);
    return Number.isFinite(v) && v >= 0 ? v : undefined;
}

/** 429 → wait; 408 and 5xx → transient; any other refusal (bad credentials, unknown destination) → permanent. */
export function classifyStatus(status: number, error: string, retryAfter?: number): SendResult {
    if (status === 429) return { outcome: 'retry', afterSeconds: retryAfter ?? 5, error };
    if (status === 408 || status >= 500) return { outcome: 'transient', error };
    return { outcome: 'permanent', error };
}

/** Whether anything answers at `url`'s origin: any HTTP status counts, only a failure to connect does not. */
export async function probeHttp(ctx: NotifyContext, url: string): Promise<boolean> {
    let origin: string;
    try {
        origin = new URL(url).origin;
    } catch {
        return false;
    }
    try {
        await ctx.http.request(`${origin}/`, {
            method: 'HEAD',
            timeoutMs: 3000,
            maxBodyBytes: 1024,
            truncateBody: true,
        });
        return true;
    } catch (err) {
        return err instanceof HttpError && !['network', 'timeout', 'refused', 'invalid_url'].includes(err.kind);
    }
}
