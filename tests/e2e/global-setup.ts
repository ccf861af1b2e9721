import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

const root = new URL('../..', import.meta.url).pathname;

declare module 'vitest' {
    export interface ProvidedContext {
        /** A DATA_DIR whose pglite/ holds an initialised, migrated database, copied by every startConsole. */
        e2eTemplateDir: string;
    }
}

/**
 * PGlite's initdb and the migrations take 10–15 s of every server start on a busy 2-core runner; done once here
 * with the server's own `migrate` command, each file's console starts from a copy of the result instead.
 */
export default function setup(project: TestProject) {
    const dir = mkdtempSync(join(tmpdir(), 'nm-e2e-template-'));
    const res = spawnSync(join(root, 'node_modules/.bin/tsx'), ['server/main.ts', 'migrate'], {
        cwd: root,
        env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' },
        encoding: 'utf8',
    });
    if (res.status !== 0) throw new Error(`migrating the template database failed: ${res.stdout}${res.stderr}`);
    project.provide('e2eTemplateDir', dir);
    return () => rmSync(dir, { recursive: true, force: true });
}
