import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../server/config';
import { openDatabase } from '../../../server/db/client';

/** Issue 8 item 10: DATA_DIR holds the secret key and the database; no other local user may read them. */
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
});
