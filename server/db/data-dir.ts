import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * DATA_DIR holds the key that decrypts every stored secret and the whole database: only the account running the
 * console may read it. Created 0700 (files 0600), and a mode found too open is tightened at start when this
 * process owns the path (another owner's choice is theirs to make).
 */
export function ensurePrivateDir(dir: string): void {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    tighten(dir, 0o700);
}

export function tighten(path: string, mode: number): void {
    let st: ReturnType<typeof statSync>;
    try {
        st = statSync(path);
    } catch {
        return;
    }
    const mine = process.getuid === undefined || st.uid === process.getuid();
    if (mine && (st.mode & 0o777 & ~mode) !== 0) chmodSync(path, mode);
}

/**
 * Tightens every directory under `dir` to 0700 and every file to 0600. PGlite writes its data directory through
 * Emscripten, which sets modes of its own (initdb's files 0666, relcache init files 0644) whatever the umask says.
 */
export function tightenTree(dir: string): void {
    tighten(dir, 0o700);
    for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
        tighten(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o700 : 0o600);
    }
}
