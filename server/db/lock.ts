import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from './data-dir';

/**
 * PGlite has no cross-process lock, and two processes writing one data directory corrupt it. The lock file holds
 * the owner's pid; a lock left by a dead process is taken over.
 */
export function acquireDataDirLock(dataDir: string): () => void {
    ensurePrivateDir(dataDir);
    const file = join(dataDir, 'node-monitor.lock');
    for (let attempt = 0; attempt < 2; attempt++) {
        try {
            const fd = openSync(file, 'wx', 0o600);
            writeSync(fd, String(process.pid));
            closeSync(fd);
            return () => rmSync(file, { force: true });
        } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
            const pid = Number(readFileSync(file, 'utf8').trim());
            if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
                throw new Error(
                    `Another Node Monitor process (pid ${pid}) is already using the data directory ${dataDir}. ` +
                        'Stop it first, or start this one with a different DATA_DIR.'
                );
            }
            rmSync(file, { force: true });
        }
    }
    throw new Error(`Could not lock the data directory ${dataDir}`);
}

function isAlive(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch (err) {
        return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
}
