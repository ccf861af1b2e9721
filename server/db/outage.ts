import type { FastifyBaseLogger } from 'fastify';

/** A failure of the database itself, as opposed to a failure of one statement (a constraint, a bad value). */
export interface DbFailure {
    /** The cause as the database or the driver told it, e.g. "No space left on device". */
    reason: string;
    /** Reads still work (a full disk, a read-only database): only a write that succeeds shows it is over. */
    writesOnly: boolean;
}

/** SQLSTATEs: class 08 connection, 57P0x shutdown/starting, 53300 too many connections. */
const UNREACHABLE_STATE = /^(08...|57P0[123]|53300)$/;
const UNREACHABLE_CODE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
const UNREACHABLE_TEXT =
    /connection terminated|timeout exceeded when trying to connect|connection timeout|pglite is closed|client was closed/i;
/** SQLSTATEs: 53100 disk full, 53000/53200 resources, 58030 I/O error, 25006 read-only transaction. */
const CANNOT_WRITE_STATE = /^(53[012]00|58030|25006)$/;
const CANNOT_WRITE_CODE = new Set(['ENOSPC', 'EROFS', 'EDQUOT', 'EIO']);
const CANNOT_WRITE_TEXT = /no space left on device|disk full|read-only file system|disk quota exceeded/i;

function causes(err: unknown): { code?: unknown; message?: unknown }[] {
    const chain: { code?: unknown; message?: unknown }[] = [];
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
    while (e && typeof e === 'object' && chain.length < 5) {
        chain.push(e);
        e = e.cause as typeof e;
    }
    return chain;
}

/**
 * Tells a database failure from an ordinary error. The reason is the innermost error's first line: Drizzle's outer
 * "Failed query" message carries the statement and its parameters, which must not reach a user or the log.
 */
export function databaseFailure(err: unknown): DbFailure | null {
    const chain = causes(err);
    const matches = (state: RegExp, codes: Set<string>, text: RegExp) =>
        chain.some(
            (e) =>
                (typeof e.code === 'string' && (state.test(e.code) || codes.has(e.code))) ||
                (typeof e.message === 'string' && text.test(e.message))
        );
    const writesOnly = matches(CANNOT_WRITE_STATE, CANNOT_WRITE_CODE, CANNOT_WRITE_TEXT);
    if (!writesOnly && !matches(UNREACHABLE_STATE, UNREACHABLE_CODE, UNREACHABLE_TEXT)) return null;
    const inner = chain[chain.length - 1];
    const text = typeof inner?.message === 'string' ? inner.message.split('\n')[0]?.trim() : '';
    return { reason: text ? text.slice(0, 200) : 'unknown cause', writesOnly };
}

/** The sentence users read for a database failure: what cannot be done, and why. */
export function failureSentence(f: DbFailure): string {
    return f.writesOnly
        ? `The database cannot write: ${f.reason}. Nothing was saved.`
        : `The database is not answering: ${f.reason}.`;
}

const duration = (ms: number) => {
    const s = Math.round(ms / 1000);
    return s < 120 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
};

/**
 * One view of whether the database works, shared by the API, the health route and every periodic loop (engine
 * flush, outbox, maintenance). A loop reports its failures here and logs nothing itself when `failed` says it was
 * the database: an outage is logged once when it starts and once when it ends, with its length, however many
 * loops hit it every second. While the database cannot be reached, a probe reads it every `probeMs` to see the end.
 */
export class DatabaseHealth {
    private outage: (DbFailure & { since: number }) | null = null;
    private probe: NodeJS.Timeout | null = null;
    private probing = false;

    constructor(
        private readonly log: FastifyBaseLogger,
        private readonly read: () => Promise<unknown>,
        private readonly probeMs = 2000
    ) {}

    /** Reports a failed operation; returns the failure when it was the database's, null for an ordinary error. */
    failed(err: unknown, source: string): DbFailure | null {
        const f = databaseFailure(err);
        if (!f) return null;
        if (!this.outage) {
            this.outage = { ...f, since: Date.now() };
            this.log.error(`Database outage began (first seen by ${source}): ${failureSentence(f)}`);
        } else if (this.outage.writesOnly && !f.writesOnly) {
            this.outage = { ...f, since: this.outage.since };
        }
        if (!this.outage.writesOnly) this.startProbe();
        return f;
    }

    /** Reports a successful operation: a write ends any outage, a read only one in which nothing could be read. */
    succeeded(kind: 'read' | 'write'): void {
        const o = this.outage;
        if (!o || (kind === 'read' && o.writesOnly)) return;
        this.outage = null;
        this.stopProbe();
        this.log.warn(`Database outage ended after ${duration(Date.now() - o.since)} (${o.reason})`);
    }

    /** The current outage, null while the database works. */
    get failure(): (DbFailure & { since: Date }) | null {
        return this.outage ? { ...this.outage, since: new Date(this.outage.since) } : null;
    }

    stop(): void {
        this.stopProbe();
    }

    private startProbe(): void {
        if (this.probe) return;
        this.probe = setInterval(() => void this.runProbe(), this.probeMs);
        this.probe.unref();
    }

    private stopProbe(): void {
        if (this.probe) clearInterval(this.probe);
        this.probe = null;
    }

    private async runProbe(): Promise<void> {
        if (this.probing) return;
        this.probing = true;
        try {
            await this.read();
            this.succeeded('read');
        } catch (err) {
            this.failed(err, 'the outage probe');
        } finally {
            this.probing = false;
        }
    }
}
