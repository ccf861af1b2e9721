import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

/**
 * Database faults injected under a running app, for PGlite and PostgreSQL alike.
 *
 * A full disk: on PGlite (a data directory, not memory://) the file system itself refuses writes under the data
 * directory with ENOSPC, exactly as a full disk does, and PostgreSQL inside PGlite answers as it does on one
 * ("could not extend file …: No space left on device", SQLSTATE 53100). On PostgreSQL, whose disk the test cannot
 * fill, a trigger on every table raises that same error for every insert, update and delete.
 */
export interface FullDisk {
    fill(app: FastifyInstance): Promise<void>;
    free(app: FastifyInstance): Promise<void>;
    /** Puts the file system functions back. */
    restore(): void;
}

/** Install before the app opens its database (PGlite keeps its files open): `dataDir` null means PostgreSQL. */
export function fullDisk(dataDir: string | null): FullDisk {
    return dataDir ? fullFileSystem(`${dataDir}/`) : diskFullTriggers();
}

function fullFileSystem(under: string): FullDisk {
    const ours = new Set<number>();
    const open = fs.openSync;
    const write = fs.writeSync;
    let full = false;
    const patched = fs as unknown as Record<string, unknown>;
    patched.openSync = (...a: unknown[]) => {
        const fd = (open as (...x: unknown[]) => number)(...a);
        if (String(a[0]).startsWith(under)) ours.add(fd);
        return fd;
    };
    patched.writeSync = (...a: unknown[]) => {
        if (full && ours.has(a[0] as number)) {
            throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
        }
        return (write as (...x: unknown[]) => unknown)(...a);
    };
    return {
        fill: async () => {
            full = true;
        },
        free: async () => {
            full = false;
        },
        restore: () => {
            patched.openSync = open;
            patched.writeSync = write;
        },
    };
}

function diskFullTriggers(): FullDisk {
    const tables = async (app: FastifyInstance) => {
        const res = await app.ctx.db.execute(
            sql`select tablename from pg_tables where schemaname = 'public' and tablename not like '%migrations%'`
        );
        return (res as unknown as { rows: { tablename: string }[] }).rows.map((r) => r.tablename);
    };
    return {
        fill: async (app) => {
            await app.ctx.db.execute(
                sql.raw(`create or replace function nm_test_disk_full() returns trigger language plpgsql as $$
                    begin
                        raise exception 'could not extend file "base/16384/%": No space left on device', tg_relid
                            using errcode = '53100';
                    end $$`)
            );
            for (const t of await tables(app)) {
                await app.ctx.db.execute(
                    sql.raw(`create trigger nm_test_disk_full before insert or update or delete on "${t}"
                        for each statement execute function nm_test_disk_full()`)
                );
            }
        },
        free: async (app) => {
            for (const t of await tables(app))
                await app.ctx.db.execute(sql.raw(`drop trigger if exists nm_test_disk_full on "${t}"`));
        },
        restore: () => {},
    };
}

/**
 * A database that stops: every query and every new connection is refused at the driver, as by a PostgreSQL that
 * is shut down (ECONNREFUSED), until `start()`.
 */
export function stoppableDatabase(app: FastifyInstance): { stop(): void; start(): void } {
    const client = (app.ctx.db as unknown as { $client: Record<string, unknown> }).$client;
    const methods = ['query', 'exec', 'transaction', 'connect'].filter((m) => typeof client[m] === 'function');
    const originals = new Map(methods.map((m) => [m, client[m] as (...a: unknown[]) => Promise<unknown>]));
    let stopped = false;
    for (const [m, original] of originals) {
        client[m] = (...a: unknown[]) => {
            if (!stopped) return original.apply(client, a);
            const err = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
            return Promise.reject(err);
        };
    }
    return {
        stop: () => {
            stopped = true;
        },
        start: () => {
            stopped = false;
        },
    };
}
