/**
 * The last height a monitor has read, kept in process memory. `Check.read` does not see the persisted memory,
 * so this is only a hint of where to resume: after a restart it is empty and the check reads just the newest
 * block, and `evaluate` (which does see the persisted last height) never counts a height twice.
 * Bounded, so deleted monitors cannot make it grow without limit.
 */
export class BlockCursor {
    private readonly heights = new Map<string, number>();

    constructor(private readonly maxEntries = 10_000) {}

    get(key: string): number | undefined {
        return this.heights.get(key);
    }

    set(key: string, height: number): void {
        this.heights.delete(key); // re-insert, so iteration order is least recently used first
        this.heights.set(key, height);
        if (this.heights.size > this.maxEntries) {
            const oldest = this.heights.keys().next();
            if (!oldest.done) this.heights.delete(oldest.value);
        }
    }
}
