import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from './client';
import type { DatabaseHealth } from './outage';

/**
 * monitor_states takes an upsert per monitor a minute (20,000 dead rows a minute in bench:api): vacuumed every ten
 * minutes, its one VACUUM held every request for ~350 ms; every two minutes it has a fifth of the rows to clear.
 */
const VACUUM_EVERY_MS = 2 * 60_000;
/** Statistics move slowly; ANALYZE, even with a small sample, is most of what maintenance costs on quiet tables. */
const ANALYZE_EVERY_NTH_VACUUM = 5;
/** The tables the engine rewrites all the time; the rest changes at the pace of operators. */
// History tables lose rows to the pruner all the time; vacuum makes that space reusable.
const BUSY_TABLES = [
    'monitors',
    'monitor_states',
    'outbox',
    'audit_entries',
    'check_results',
    'history_5m',
    'history_1h',
    'history_1d',
    'history_days',
    'disk_history',
];

/**
 * Vacuums (and analyses, when asked) the busy tables one statement each. PGlite runs a statement on the server's only
 * thread: all nine in one statement held every request for 885 ms (bench:api data, 20,000 monitors, after 4 minutes
 * of checks), one table at a time for at most 190 ms; the requests that queued meanwhile are served between tables,
 * where the database client lets the event loop turn (client.ts, yieldEverySlice).
 */
export async function vacuumBusyTables(db: Db, { analyze }: { analyze: boolean }): Promise<void> {
    for (const table of BUSY_TABLES) {
        await db.execute(
            analyze ? sql`vacuum (analyze) ${sql.identifier(table)}` : sql`vacuum ${sql.identifier(table)}`
        );
    }
}

/**
 * PGlite runs no autovacuum or autoanalyze: without statistics the planner guesses (the failed-monitors query took
 * 16 ms instead of 1.4 ms), and rows the engine rewrites every minute pile up. So the embedded database is analysed
 * at start, its busy tables vacuumed every two minutes and analysed every ten. PostgreSQL does this itself.
 */
export function scheduleMaintenance(database: Database, health: DatabaseHealth, log: FastifyBaseLogger): () => void {
    if (database.kind !== 'pglite') return () => {};
    let vacuums = 0;
    const run = async (what: 'analyze' | 'vacuum') => {
        try {
            if (what === 'analyze') await database.db.execute(sql`analyze`);
            else await vacuumBusyTables(database.db, { analyze: ++vacuums % ANALYZE_EVERY_NTH_VACUUM === 0 });
        } catch (err) {
            if (health.failed(err, 'database maintenance')) return;
            log.warn(`Database maintenance (${what}) failed: ${(err as Error).message}`);
        }
    };
    void run('analyze');
    const timer = setInterval(() => void run('vacuum'), VACUUM_EVERY_MS);
    timer.unref();
    return () => clearInterval(timer);
}
