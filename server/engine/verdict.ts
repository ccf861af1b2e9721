/** The outcome of reading the node: a measurement, or an error sentence an operator can act on. */
export type ReadResult<M> = { ok: true; value: M } | { ok: false; error: string };

/** A type's judgement of one reading: `ok`, `warning` or `error`, with the sentence shown as last_error. */
export interface Verdict {
    level: 'ok' | 'warning' | 'error';
    message: string | null;
}
