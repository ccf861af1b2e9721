import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../../server/config';
import { openDatabase } from '../../../server/db/client';

/** DATA_DIR holds the secret key and the database; no other local user may read them. */
const mode = (path: string) => statSync(path).mode & 0o777;
let root: string;
let umask: number;

beforeAll(() => {
    // The usual umask, under which plain mkdir/writeFile give 0755/0644.
    umask = process.umask(0o022);
    root = mkdtempSync(join(tmpdir(), 'nm-modes-'));
});
afterAll(() => {
    process.umask(umask);
    rmSync(root, { recursive: true, force: true });
});

/** Every path under `dir` whose mode is not 0700 (directories) or 0600 (files), with its mode. */
function tooOpen(dir: string): string[] {
    const found: string[] = [];
    for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
        const path = join(entry.parentPath, entry.name);
        const want = entry.isDirectory() ? 0o700 : 0o600;
        if (mode(path) !== want) found.push(`${path} ${mode(path).toString(8)}`);
    }
    return found;
}

async function start(dataDir: string) {
    const config = loadConfig({ DATA_DIR: dataDir });
    const db = await openDatabase({ databaseUrl: null, dataDir: config.dataDir });
    return db;
}

describe('DATA_DIR modes', () => {
    it('creates the directory 0700 and its files 0600', async () => {
        const dataDir = join(root, 'fresh', 'data');
        const db = await start(dataDir);
        try {
            expect(mode(dataDir)).toBe(0o700);
            expect(mode(join(dataDir, 'secret.key'))).toBe(0o600);
            expect(mode(join(dataDir, 'node-monitor.lock'))).toBe(0o600);
            expect(mode(join(dataDir, 'pglite'))).toBe(0o700);
        } finally {
            await db.close();
        }
    }, 120_000);

    it('tightens a directory and key left readable by everyone', async () => {
        const dataDir = join(root, 'old');
        mkdirSync(join(dataDir, 'pglite'), { recursive: true, mode: 0o755 });
        writeFileSync(join(dataDir, 'secret.key'), `${'ab'.repeat(32)}\n`, { mode: 0o644 });
        expect(mode(dataDir)).toBe(0o755);
        expect(mode(join(dataDir, 'secret.key'))).toBe(0o644);
        const db = await start(dataDir);
        try {
            expect(mode(dataDir)).toBe(0o700);
            expect(mode(join(dataDir, 'secret.key'))).toBe(0o600);
            expect(mode(join(dataDir, 'pglite'))).toBe(0o700);
        } finally {
            await db.close();
        }
    }, 120_000);

    it('keeps every file PGlite writes 0600 and every directory 0700, and tightens those an older start left open', async () => {
        const dataDir = join(root, 'pglite-files');
        const first = await start(dataDir);
        await first.db.execute(sql`create table nm_mode_probe (n int)`);
        await first.db.execute(sql`insert into nm_mode_probe select generate_series(1, 1000)`);
        await first.close();
        expect(tooOpen(dataDir)).toEqual([]);

        // What a version that let PGlite use the 022 umask left behind.
        const base = join(dataDir, 'pglite', 'base');
        const old = join(dataDir, 'pglite', 'left-open');
        mkdirSync(old, { mode: 0o755 });
        writeFileSync(join(old, 'file'), 'x', { mode: 0o644 });
        writeFileSync(join(base, 'stray'), 'x', { mode: 0o644 });
        const second = await start(dataDir);
        try {
            await second.db.execute(sql`insert into nm_mode_probe select generate_series(1, 1000)`);
            expect(tooOpen(dataDir)).toEqual([]);
        } finally {
            await second.close();
        }
        expect(tooOpen(dataDir)).toEqual([]);
    }, 120_000);
});
