import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { ensurePrivateDir } from '../data-dir';
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

/**
 * Opens PostgreSQL when a postgres:// URL is given, PGlite in memory for `memory://`, else PGlite in DATA_DIR/pglite
 * guarded by a lock file. Migrations run before the handle is returned.
 */
export async function openDatabase(opts: { databaseUrl: string | null; dataDir: string }): Promise<Database> {
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
        client = new PGlite();
    } else {
        release = acquireDataDirLock(opts.dataDir);
        const dir = `${opts.dataDir}/pglite`;
        // Created before PGlite does, which would make it readable by every local user.
        ensurePrivateDir(dir);
        try {
            client = new PGlite(dir);
            await client.waitReady;
        } catch (err) {
            release();
            throw err;
        }
    }
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    try {
        await migratePglite(db as unknown as Parameters<typeof migratePglite>[0], { migrationsFolder });
    } catch (err) {
        await client.close();
        release();
        throw err;
    }
    return {
        db,
        kind: 'pglite',
        close: async () => {
            await client.close();
            release();
        },
    };
}
