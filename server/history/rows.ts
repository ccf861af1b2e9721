import type { SQL } from 'drizzle-orm';
import type { Db } from '../db/client';

type Row = Record<string, unknown>;

/** The rows of a raw query, whichever driver (PGlite or node-postgres) ran it. */
export async function rowsOf(db: Db, query: SQL): Promise<Row[]> {
    return ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
}
