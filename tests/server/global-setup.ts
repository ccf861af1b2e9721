import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
    export interface ProvidedContext {
        /** A dump of a migrated in-memory PGlite, or '' on the PostgreSQL pass (see helpers.ts). */
        serverDbTemplate: string;
        /** On the PostgreSQL pass, a migrated database each throw-away one is created from; else ''. */
        postgresTemplate: string;
    }
}

/**
 * initdb of an in-memory PGlite takes seconds of CPU in every test file that opens one, and the migrations a second
 * or two on PostgreSQL: done once here, and each file's database starts from the result (helpers.ts). The app's own
 * migration run then finds nothing to do.
 */
export default async function setup(project: TestProject) {
    const pgBase = process.env.DATABASE_URL;
    if (pgBase) {
        project.provide('serverDbTemplate', '');
        return postgresTemplate(project, pgBase);
    }
    project.provide('postgresTemplate', '');
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

async function postgresTemplate(project: TestProject, baseUrl: string) {
    const name = `nm_template_${randomBytes(6).toString('hex')}`;
    const admin = async (query: string) => {
        const c = new pg.Client({ connectionString: baseUrl });
        await c.connect();
        await c.query(query);
        await c.end();
    };
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    // The server's own path, so the template is what a first start makes.
    const { openDatabase } = await import('../../server/db/client');
    const db = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
    await db.close();
    project.provide('postgresTemplate', name);
    return () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
