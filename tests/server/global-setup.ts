import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
    export interface ProvidedContext {
        /** A dump of a migrated in-memory PGlite, or '' on the PostgreSQL pass (see helpers.ts). */
        serverDbTemplate: string;
    }
}

/**
 * initdb of an in-memory PGlite takes seconds of CPU in every test file that opens one: done once here, with the
 * server's own migrations, and each file's app loads the dump (createTestApp). Its own migration run then finds
 * nothing to do.
 */
export default async function setup(project: TestProject) {
    if (process.env.DATABASE_URL) {
        project.provide('serverDbTemplate', '');
        return;
    }
    const db = new PGlite();
    await migrate(drizzle(db), {
        migrationsFolder: new URL('../../server/db/migrations', import.meta.url).pathname,
    });
    const dump = await db.dumpDataDir('none');
    await db.close();
    const dir = mkdtempSync(join(tmpdir(), 'nm-server-template-'));
    const file = join(dir, 'pgdata.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    project.provide('serverDbTemplate', file);
    return () => rmSync(dir, { recursive: true, force: true });
}
