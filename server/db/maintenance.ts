import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './client';
import type { DatabaseHealth } from './outage';

const EVERY_MS = 10 * 60_000;
/** The tables the engine rewrites all the time; the rest changes at the pace of operators. */
// History tables lose rows to the pruner all the time; vacuum makes that space reusable.
const BUSY_TABLES = sql`monitors, monitor_states, outbox, audit_entries, check_results, history_5m, history_1h, history_1d, disk_history`;

/**
 * PGlite runs no autovacuum or autoanalyze: without statistics the planner guesses (the failed-monitors query took
 * 16 ms instead of 1.4 ms), and rows the engine rewrites every minute pile up. So the embedded database is analysed
 * at start and vacuumed and analysed every ten minutes. PostgreSQL does this itself.
 */
export function scheduleMaintenance(database: Database, health: DatabaseHealth, log: FastifyBaseLogger): () => void {
    if (database.kind !== 'pglite') return () => {};
    const run = async (what: 'analyze' | 'vacuum') => {
        try {
            await database.db.execute(what === 'analyze' ? sql`analyze` : sql`vacuum (analyze) ${BUSY_TABLES}`);
        } catch (err) {
            if (health.failed(err, 'database maintenance')) return;
            log.warn(`Database maintenance (${what}) failed: ${(err as Error).message}`);
        }
    };
    void run('analyze');
    const timer = setInterval(() => void run('vacuum'), EVERY_MS);
    timer.unref();
    return () => clearInterval(timer);
}
