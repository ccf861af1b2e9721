import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { ensurePrivateDir, tightenTree } from './data-dir';
import * as schema from './schema';
import { acquireDataDirLock } from './lock';

/** One handle type for both drivers (a union breaks Drizzle's overloads). */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
    db: Db;
    kind: 'pglite' | 'postgres';
    close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
const initdbScript = fileURLToPath(new URL('./pglite-initdb.mjs', import.meta.url));

/**
 * PGlite's WebAssembly heap never shrinks: every page PostgreSQL touches stays resident. PostgreSQL's defaults
 * (160 MB of shared buffers, 64 MB for vacuum) are sized for a server of its own; this database holds a few MB per
 * thousand monitors, and the OS page cache still keeps the files warm. See `npm run bench:memory` for the figures.
 * ANALYZE samples 300 rows per statistics target point and holds every request while it does: at the default
 * (100) the maintenance's analyze of monitor_states took 241 ms, at 10 it takes 45 ms (audit_entries 150 → 18 ms).
 * A coarser sample still gives the planner statistics, which is what maintenance.ts analyses for.
 */
const PGLITE_SETTINGS = [
    'shared_buffers=16MB',
    'temp_buffers=1MB',
    'maintenance_work_mem=16MB',
    'work_mem=2MB',
    'default_statistics_target=10',
];
const pgliteOptions = { startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((s) => ['-c', s])] };

/** initdb in a child process, so that its instance's memory goes back to the system when the child exits. */
async function initDataDir(dir: string): Promise<void> {
    if (existsSync(`${dir}/PG_VERSION`)) return;
    await promisify(execFile)(process.execPath, [initdbScript, dir], { timeout: 120_000 });
}

/** The longest PGlite work may hold the event loop before it lets it turn (sockets read, timers run). */
const SLICE_MS = 5;

/**
 * PGlite runs every statement on this thread and resolves it in a microtask, so a chain of awaited statements (an
 * engine batch, a transaction) never lets the event loop read a socket: in `npm run bench:api` the API's cached
 * answers waited 50-200 ms behind such chains. Every protocol message (each statement sends several, in or out of a
 * transaction) passes here; once a chain has held the loop for SLICE_MS, the next message waits for the loop's next
 * turn. Not every message: under 50 closed-loop connections one turn takes milliseconds, and a turn per message
 * stretched the engine's transactions, which hold the database, until lists waited seconds.
 */
function yieldEverySlice(client: PGlite): void {
    const send = client.execProtocolStream.bind(client);
    /** When the current run without a turn of the loop began; null once the loop has turned. */
    let heldSince: number | null = null;
    client.execProtocolStream = async (...args) => {
        const now = performance.now();
        if (heldSince === null) {
            heldSince = now;
            setImmediate(() => {
                heldSince = null;
            });
        } else if (now - heldSince >= SLICE_MS) {
            await new Promise<void>((resolve) => setImmediate(resolve));
        }
        return send(...args);
    };
}

/**
 * Opens PostgreSQL when a postgres:// URL is given, PGlite in memory for `memory://` (from `memoryTemplate`, a
 * dumped data directory, when given: initdb costs seconds per test file), else PGlite in DATA_DIR/pglite guarded by a
 * lock file. Migrations run before the handle is returned.
 */
export async function openDatabase(opts: {
    databaseUrl: string | null;
    dataDir: string;
    memoryTemplate?: Blob;
}): Promise<Database> {
    if (opts.databaseUrl && opts.databaseUrl !== 'memory://') {
        const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
        // An idle connection the database ends (restart, failover, pg_terminate_backend) is dropped from the pool and
        // the next query opens a new one; without a listener the pool's 'error' event would crash the process.
        pool.on('error', () => {});
        const db = drizzlePg(pool, { schema }) as unknown as Db;
        try {
            await migratePg(db as unknown as Parameters<typeof migratePg>[0], { migrationsFolder });
        } catch (err) {
            await pool.end();
            throw err;
        }
        return { db, kind: 'postgres', close: () => pool.end() };
    }
    let release = () => {};
    let client: PGlite;
    if (opts.databaseUrl === 'memory://') {
        client = new PGlite({ ...pgliteOptions, loadDataDir: opts.memoryTemplate });
    } else {
        // Directories and files PGlite creates while it runs follow the umask; those it gives a mode of its own are
        // tightened at start and at close.
        const umask = process.umask(0o077);
        const unlock = acquireDataDirLock(opts.dataDir);
        release = () => {
            tightenTree(opts.dataDir);
            unlock();
            process.umask(umask);
        };
        const dir = `${opts.dataDir}/pglite`;
        // Created before PGlite does, which would make it readable by every local user.
        ensurePrivateDir(dir);
        try {
            await initDataDir(dir);
            tightenTree(dir);
            client = new PGlite(dir, pgliteOptions);
            await client.waitReady;
        } catch (err) {
            release();
            throw err;
        }
    }
    yieldEverySlice(client);
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    try {
        await migratePglite(db as unknown as Parameters<typeof migratePglite>[0], { migrationsFolder });
    } catch (err) {
        await client.close();
        release();
        throw err;
    }
    if (opts.databaseUrl !== 'memory://') tightenTree(opts.dataDir);
    return {
        db,
        kind: 'pglite',
        close: async () => {
            await client.close();
            release();
        },
    };
}
