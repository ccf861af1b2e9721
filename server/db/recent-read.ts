/**
 * How long one read of the database that worked answers every probe. Under load each read queued behind everything
 * else on the connection (p50 158 ms with 50 probing connections). A failure any part of the server meets (API, engine,
 * outbox, all reading or writing all the time) is on record at once and read past this; one nothing else meets shows
 * within this time.
 */
export const HEALTH_REUSE_MS = 1000;

/**
 * A read shared by every caller while it runs and for `reuseMs` after it succeeded: a probe polled by many (load
 * balancers, uptime checkers, the benchmark's 50 connections) then costs one database read per `reuseMs`, instead of
 * one read each queued behind the engine's writes on PGlite's one connection. A failed read is not kept.
 */
export function recentRead<T>(reuseMs: number, read: () => Promise<T>, now = () => performance.now()) {
    let kept: { at: number; value: T } | null = null;
    let running: Promise<T> | null = null;
    const fresh = (): Promise<T> => {
        running ??= read()
            .then((value) => {
                kept = { at: now(), value };
                return value;
            })
            .finally(() => {
                running = null;
            });
        return running;
    };
    return {
        /** The value read within `reuseMs`, else a new read (joined when one is already under way). */
        get: (): Promise<T> => (kept && now() - kept.at < reuseMs ? Promise.resolve(kept.value) : fresh()),
        /** A new read, or the one under way. */
        fresh,
    };
}
