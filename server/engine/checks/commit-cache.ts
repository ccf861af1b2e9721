import type { CometCommit } from '../../clients/cometbft';

/**
 * Canonical commits already read, per RPC service and chain id, shared by every signMissCheck in the process.
 * A canonical commit (the one block h+1 carries) never changes, so monitors reading the same node — several
 * validators on one sentry, several companies watching one validator — need one request per block between them
 * instead of one each. Only successful reads are stored. A node that reports a lower height than one stored
 * (rollback, replaced by a new chain under the same chain id) drops its entries; entries also expire after
 * `ttlMs`, and at most `maxEntries` commits are kept (oldest inserted first out).
 */
export class CommitCache {
    private readonly commits = new Map<string, { at: number; commit: CometCommit }>();
    /** Highest height stored per node key, to notice a node going backwards. */
    private readonly tops = new Map<string, number>();

    constructor(
        private readonly maxEntries = 1024,
        private readonly ttlMs = 5 * 60_000
    ) {}

    /** `node` is the RPC URL and chain id; `latest` is the node's latest height as just read. */
    observe(node: string, latest: number): void {
        const top = this.tops.get(node);
        if (top === undefined || top < latest) return;
        for (const key of this.commits.keys()) if (key.startsWith(`${node}|`)) this.commits.delete(key);
        this.tops.delete(node);
    }

    get(node: string, height: number, nowMs = Date.now()): CometCommit | undefined {
        const key = `${node}|${height}`;
        const hit = this.commits.get(key);
        if (!hit) return undefined;
        if (nowMs - hit.at > this.ttlMs) {
            this.commits.delete(key);
            return undefined;
        }
        return hit.commit;
    }

    set(node: string, commit: CometCommit, nowMs = Date.now()): void {
        this.commits.set(`${node}|${commit.height}`, { at: nowMs, commit });
        this.tops.set(node, Math.max(this.tops.get(node) ?? 0, commit.height));
        while (this.commits.size > this.maxEntries) {
            const oldest = this.commits.keys().next();
            if (oldest.done) break;
            this.commits.delete(oldest.value);
        }
        if (this.tops.size > this.maxEntries) this.tops.clear();
    }
}
