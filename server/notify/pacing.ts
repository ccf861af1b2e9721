const WINDOW_MS = 60_000;

export interface Pacing {
    /** Messages one channel is sent within `windowMs`, sliding; by default its type's own limit per minute. */
    limit?: number;
    windowMs: number;
    /** The clock of due times, backoff and the window; tests drive it instead of waiting. */
    now: () => number;
}

/**
 * When each channel was tried, within the window: in this process's memory (`MemorySendLog`), or in the cluster
 * profile in Redis (`RedisSendLog`, pacing-redis.ts), so every process's sends to a channel count against one budget.
 * server/assembly/shared-state.ts picks one.
 */
export interface SendLog {
    /** Notes a message tried on the channel at `at`; entries are kept at least `windowMs`. */
    add(channelId: number, at: number, windowMs: number): Promise<void>;
    /** Messages tried on the channel after `since`. */
    countAfter(channelId: number, since: number): Promise<number>;
}

/** The embedded profile's send log: one process sends, so its memory holds every send (a restart forgets it). */
export class MemorySendLog implements SendLog {
    private readonly recent = new Map<number, number[]>();

    async add(channelId: number, at: number): Promise<void> {
        this.recent.set(channelId, [...(this.recent.get(channelId) ?? []), at]);
    }

    async countAfter(channelId: number, since: number): Promise<number> {
        const recent = (this.recent.get(channelId) ?? []).filter((t) => t > since);
        if (recent.length === 0) this.recent.delete(channelId);
        else this.recent.set(channelId, recent);
        return recent.length;
    }
}

/** Keeps each channel under its messages per window, counting what it was sent in its send log. */
export class ChannelPacer {
    readonly pacing: Pacing;

    constructor(
        pacing: Partial<Pacing> = {},
        private readonly log: SendLog = new MemorySendLog()
    ) {
        // Date.now is looked up on each call, not captured: faking Date also moves PGlite's now(), which sets the due
        // times this clock is compared with.
        this.pacing = { windowMs: WINDOW_MS, now: () => Date.now(), ...pacing };
    }

    now(): number {
        return this.pacing.now();
    }

    /** Counts a message tried now: a refused request still counts towards the destination's flood control. */
    async tried(channelId: number): Promise<void> {
        await this.log.add(channelId, this.now(), this.pacing.windowMs);
    }

    /** Whether the channel may be sent another message now, given its type's limit per minute. */
    async hasBudget(channelId: number, perMinute: number): Promise<boolean> {
        const sent = await this.log.countAfter(channelId, this.now() - this.pacing.windowMs);
        return sent < (this.pacing.limit ?? perMinute);
    }
}
