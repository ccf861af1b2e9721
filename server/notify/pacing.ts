const WINDOW_MS = 60_000;

export interface Pacing {
    /** Messages one channel is sent within `windowMs`, sliding; by default its type's own limit per minute. */
    limit?: number;
    windowMs: number;
    /** The clock of due times, backoff and the window; tests drive it instead of waiting. */
    now: () => number;
}

/** Keeps each channel under its messages per window, counting what it was sent in memory (a restart forgets it). */
export class ChannelPacer {
    readonly pacing: Pacing;
    /** When each channel was last sent messages, within the window. */
    private readonly recent = new Map<number, number[]>();

    constructor(pacing: Partial<Pacing> = {}) {
        // Date.now is looked up on each call, not captured: faking Date also moves PGlite's now(), which sets the due
        // times this clock is compared with.
        this.pacing = { windowMs: WINDOW_MS, now: () => Date.now(), ...pacing };
    }

    now(): number {
        return this.pacing.now();
    }

    /** Counts a message tried now: a refused request still counts towards the destination's flood control. */
    tried(channelId: number): void {
        this.recent.set(channelId, [...(this.recent.get(channelId) ?? []), this.now()]);
    }

    /** Whether the channel may be sent another message now, given its type's limit per minute. */
    hasBudget(channelId: number, perMinute: number): boolean {
        const now = this.now();
        const recent = (this.recent.get(channelId) ?? []).filter((t) => now - t < this.pacing.windowMs);
        if (recent.length === 0) this.recent.delete(channelId);
        else this.recent.set(channelId, recent);
        return recent.length < (this.pacing.limit ?? perMinute);
    }
}
