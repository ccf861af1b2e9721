import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './processes';

/**
 * A Redis of a test's own, keeping its data in an append-only file in a temp dir (the machine's Redis keeps nothing
 * on disk), so the test can crash it and start it again on the same port and file. Every write is fsynced before
 * Redis answers (appendfsync always): a crash loses nothing the cluster was told was written.
 */
export class OwnRedis {
    private child: ChildProcess | null = null;
    private readonly dir = mkdtempSync(join(tmpdir(), 'nm-redis-'));

    private constructor(readonly port: number) {}

    static async start(): Promise<OwnRedis> {
        const redis = new OwnRedis(await freePort());
        await redis.up();
        return redis;
    }

    get url(): string {
        return `redis://127.0.0.1:${this.port}/0`;
    }

    /** Starts redis-server on the port and dir (again, after a crash) and waits until it answers PING. */
    async up(): Promise<void> {
        const child = spawn(
            'redis-server',
            [
                '--port',
                String(this.port),
                '--bind',
                '127.0.0.1',
                '--dir',
                this.dir,
                '--appendonly',
                'yes',
                '--appendfsync',
                'always',
                '--save',
                '',
            ],
            { stdio: ['ignore', 'pipe', 'pipe'] }
        );
        const output: string[] = [];
        child.stdout?.on('data', (c: Buffer) => output.push(c.toString()));
        child.stderr?.on('data', (c: Buffer) => output.push(c.toString()));
        this.child = child;
        const client = new Redis({
            port: this.port,
            lazyConnect: true,
            maxRetriesPerRequest: 0,
            retryStrategy: () => null,
        });
        client.on('error', () => {});
        const deadline = Date.now() + 20_000;
        for (;;) {
            if (child.exitCode !== null) throw new Error(`redis-server exited: ${output.join('')}`);
            try {
                await client.connect();
                // Answers LOADING while it replays the append-only file.
                if ((await client.ping()) === 'PONG') break;
            } catch {
                client.disconnect();
            }
            if (Date.now() > deadline) throw new Error(`redis-server did not answer: ${output.join('')}`);
            await new Promise((r) => setTimeout(r, 100));
        }
        client.disconnect();
    }

    /** A crash: kill -9, no shutdown save (there is none to make: the append-only file is already on disk). */
    async crash(): Promise<void> {
        const child = this.child;
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGKILL');
        await once(child, 'exit');
    }

    async close(): Promise<void> {
        await this.crash();
        rmSync(this.dir, { recursive: true, force: true });
    }
}
