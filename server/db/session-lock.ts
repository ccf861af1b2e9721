import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

/** How often a process that does not hold the lock asks for it again, and the holder probes its connection. */
const RETRY_MS = 5000;
/** A probe or an ask that takes longer than this counts as a dead connection. */
const QUERY_TIMEOUT_MS = 4000;
/**
 * PostgreSQL's side of the lock's connection: a client host that vanished (power, network) without closing its
 * socket is found dead after about 5 + 3 × 5 s, and the lock released. A process killed with -9 closes its socket
 * through the kernel, which releases the lock at once. The holder's own probe (every RETRY_MS, QUERY_TIMEOUT_MS at
 * most) gives up sooner than that, so a holder cut off from the database stops before another process can start.
 */
const SERVER_KEEPALIVES = 'set tcp_keepalives_idle = 5; set tcp_keepalives_interval = 5; set tcp_keepalives_count = 3';

export interface SessionLockOptions {
    databaseUrl: string;
    /** The lock's number, the same in every process of the cluster and used by nothing else on the database. */
    key: number;
    /** Shows in pg_stat_activity.application_name with this process's pid and host, so operators see the holder. */
    name: string;
    /** Runs once this process holds the lock. */
    onAcquired: () => Promise<void> | void;
    /** Runs once this process may no longer hold it (connection lost or stopping); must stop what onAcquired began. */
    onLost: () => Promise<void> | void;
    retryMs?: number;
}

/**
 * A PostgreSQL session advisory lock (`pg_try_advisory_lock`) held on a connection of its own: one process of the
 * cluster holds it, the others ask again every few seconds. PostgreSQL ties the lock to the session, so it needs no
 * lease, renewal or clock of ours: it is released exactly when the holder's connection ends, however the process
 * died. The connection must reach PostgreSQL directly (a pooler in transaction mode would hand the session around).
 */
export class SessionLock {
    private client: pg.Client | null = null;
    private held = false;
    private stopped = false;
    private timer: NodeJS.Timeout | null = null;
    /** Every step (ask, probe, drop, stop) runs after the one before, so the callbacks never overlap. */
    private chain: Promise<void> = Promise.resolve();

    constructor(
        private readonly opts: SessionLockOptions,
        private readonly log: FastifyBaseLogger
    ) {}

    /** Whether this process holds the lock now. */
    get holding(): boolean {
        return this.held;
    }

    start(): void {
        this.stopped = false;
        this.schedule(0);
    }

    /** Stops what the lock runs, then ends the connection, which releases the lock for another process at once. */
    async stop(): Promise<void> {
        this.stopped = true;
        if (this.timer) clearTimeout(this.timer);
        this.timer = null;
        await this.serial(() => this.drop());
    }

    private schedule(ms: number): void {
        if (this.stopped) return;
        this.timer = setTimeout(() => {
            void this.serial(() => this.tick()).finally(() => this.schedule(this.opts.retryMs ?? RETRY_MS));
        }, ms);
        this.timer.unref();
    }

    private serial(step: () => Promise<void>): Promise<void> {
        this.chain = this.chain
            .then(step)
            .catch((err) => this.log.error({ err }, `The lock of ${this.opts.name} failed`));
        return this.chain;
    }

    private async tick(): Promise<void> {
        if (this.stopped) return;
        try {
            const client = this.client ?? (await this.connect());
            if (this.held) {
                await client.query('select 1');
                return;
            }
            const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [
                this.opts.key,
            ]);
            if (!rows[0]?.ok || this.stopped) return;
            this.held = true;
            this.log.info(`This process now runs ${this.opts.name}`);
            await this.opts.onAcquired();
        } catch (err) {
            this.log.warn(`The lock of ${this.opts.name}: ${(err as Error).message}; asking again`);
            await this.drop();
        }
    }

    private async connect(): Promise<pg.Client> {
        const client = new pg.Client({
            connectionString: this.opts.databaseUrl,
            application_name: `node-monitor ${this.opts.name} pid=${process.pid} host=${hostname()}`.slice(0, 63),
            connectionTimeoutMillis: QUERY_TIMEOUT_MS,
            query_timeout: QUERY_TIMEOUT_MS,
            keepAlive: true,
        });
        // A connection that ends between steps ends the lock with it: stop at once, not at the next probe.
        const lost = () => {
            if (this.client === client) void this.serial(() => this.drop());
        };
        client.on('error', lost);
        client.on('end', lost);
        try {
            await client.connect();
            await client.query(SERVER_KEEPALIVES);
        } catch (err) {
            await client.end().catch(() => {});
            throw err;
        }
        this.client = client;
        return client;
    }

    /** The connection is gone, doubtful or no longer wanted: what the lock runs stops before the lock is let go. */
    private async drop(): Promise<void> {
        const client = this.client;
        this.client = null;
        if (this.held) {
            this.held = false;
            try {
                await this.opts.onLost();
            } catch (err) {
                this.log.error({ err }, `Stopping ${this.opts.name} failed`);
            }
            this.log.info(`This process no longer runs ${this.opts.name}`);
        }
        await client?.end().catch(() => {});
    }
}
