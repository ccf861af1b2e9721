import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireDataDirLock } from '../../../server/db/lock';

describe('the data directory lock', () => {
    it('refuses a second owner with a sentence naming the pid and the directory', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'nm-lock-'));
        // A live process other than this one holds the lock.
        const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
        try {
            writeFileSync(join(dir, 'node-monitor.lock'), String(holder.pid));
            expect(() => acquireDataDirLock(dir)).toThrow(
                `Another Node Monitor process (pid ${holder.pid}) is already using the data directory ${dir}`
            );
        } finally {
            holder.kill();
        }
    });

    it('takes over a lock left by a process that died, and releases it', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'nm-lock-'));
        writeFileSync(join(dir, 'node-monitor.lock'), '999999');
        const release = acquireDataDirLock(dir);
        release();
        const again = acquireDataDirLock(dir);
        again();
    });
});
