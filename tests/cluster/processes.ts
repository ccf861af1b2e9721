import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { AppEvent } from '../../server/events';
import { redisConnection } from '../../server/db/redis';
import { CHAIN_QUEUE, CHECK_QUEUE } from '../../server/engine/queue-scheduler';

const ROOT = new URL('../..', import.meta.url).pathname;

/** `all` is the single process; a remote probe (ROLE=probe) reads for its location and opens no database. */
export type Role = 'all' | 'web' | 'worker' | 'probe';

/** The machine's PostgreSQL; each test file makes a database of its own on it (clusterDatabase). */
export const PG_BASE = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Database 11 unless REDIS_DB names another, so two runs on one machine keep apart. */
export const REDIS_URL = `${process.env.REDIS_BASE_URL ?? 'redis://127.0.0.1:6379'}/${process.env.REDIS_DB ?? 11}`;

export async function adminQuery(query: string): Promise<void> {
    const c = new pg.Client({ connectionString: PG_BASE });
    await c.connect();
    await c.query(query);
    await c.end();
}

/** A new database on the machine's PostgreSQL: its URL, and how to drop it with every connection to it. */
export async function clusterDatabase(name: string): Promise<{ url: string; drop: () => Promise<void> }> {
    await adminQuery(`CREATE DATABASE ${name}`);
    const url = new URL(PG_BASE);
    url.pathname = `/${name}`;
    return { url: url.toString(), drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** One console process of the cluster profile (`npm start` with ROLE and the shared PostgreSQL and Redis). */
export interface ConsoleProcess {
    role: Role;
    child: ChildProcess;
    /** For `web` and `all`: where it listens. */
    url: string | null;
    output: string[];
    exited: Promise<number | null>;
}

export async function freePort(): Promise<number> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    server.close();
    if (!address || typeof address === 'string') throw new Error('no port');
    return address.port;
}

/**
 * Starts `server/main.ts start` with `env` and waits until it says it runs; in the network namespace `netns` when
 * given (`ip netns exec` execs node itself, so the pid is node's).
 */
export async function startConsole(
    role: Role,
    env: Record<string, string>,
    timeoutMs = 60_000,
    netns?: string
): Promise<ConsoleProcess> {
    const listens = role === 'web' || role === 'all';
    const port = listens ? await freePort() : 0;
    // node itself with tsx's loader (not the tsx command, whose child would outlive a kill -9 of it).
    // CONSOLE_PROF_DIR=<dir>: each process writes its V8 CPU profile (one per thread) under <dir>/<role> when it
    // exits, to find where a bench's CPU goes (a process killed with -9 writes none).
    const prof = process.env.CONSOLE_PROF_DIR
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CONSOLE_PROF_DIR}/${role}`]
        : [];
    const node = [process.execPath, ...prof, '--import', 'tsx', 'server/main.ts', 'start'];
    const [command, ...args] = netns ? ['ip', 'netns', 'exec', netns, ...node] : node;
    const child = spawn(command as string, args, {
        cwd: ROOT,
        env: { ...process.env, ...env, ROLE: role, PORT: String(port), UI_DIR: '', LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const ready = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${role} did not start: ${output.join('')}`)), timeoutMs);
        const look = (chunk: Buffer) => {
            output.push(chunk.toString());
            if (/is running/.test(chunk.toString())) {
                clearTimeout(timer);
                resolve();
            }
        };
        child.stdout?.on('data', look);
        child.stderr?.on('data', (c: Buffer) => output.push(c.toString()));
        void exited.then((code) => {
            clearTimeout(timer);
            reject(new Error(`${role} exited with ${code}: ${output.join('')}`));
        });
    });
    await ready;
    return { role, child, url: listens ? `http://127.0.0.1:${port}` : null, output, exited };
}

/** Stops a process: SIGTERM (a clean stop) or SIGKILL (a crash). */
export async function stopConsole(p: ConsoleProcess, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return;
    p.child.kill(signal);
    await p.exited;
}

/**
 * Ends a process as an operator would: SIGTERM, and SIGKILL if it is still up after `graceMs` (a process stops
 * itself within 10 s of SIGTERM; a test's teardown need not wait that long for one stuck on a dead dependency).
 */
export async function endConsole(p: ConsoleProcess, graceMs = 5000): Promise<void> {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return;
    p.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), graceMs);
    });
    const ended = await Promise.race([p.exited, late]);
    clearTimeout(timer);
    if (ended === 'late') await stopConsole(p, 'SIGKILL');
}

/** The cluster's Redis as a test reads it: the job schedulers, and the event channel the consoles relay. */
export class RedisProbe {
    readonly queue: Queue;
    /** The checks judged across monitors, which the holder of the cluster-wide duties runs (queue-scheduler.ts). */
    readonly chainQueue: Queue;
    private readonly redis: Redis;

    constructor(readonly url: string) {
        this.queue = new Queue(CHECK_QUEUE, { connection: redisConnection(url) });
        this.chainQueue = new Queue(CHAIN_QUEUE, { connection: redisConnection(url) });
        this.redis = new Redis(redisConnection(url));
        // A test that restarts Redis reads again once it is back; the refused connections meanwhile are expected.
        this.queue.on('error', () => {});
        this.chainQueue.on('error', () => {});
        this.redis.on('error', () => {});
    }

    async flush(): Promise<void> {
        await this.redis.flushdb();
    }

    /** The job schedulers of both queues, or of one. */
    private async all(lane?: 'main' | 'chain') {
        const queues =
            lane === 'main' ? [this.queue] : lane === 'chain' ? [this.chainQueue] : [this.queue, this.chainQueue];
        return (await Promise.all(queues.map((q) => q.getJobSchedulers(0, -1)))).flat();
    }

    /** Every job scheduler (of both queues, or of one): monitor id → interval (ms). */
    async schedulers(lane?: 'main' | 'chain'): Promise<Map<string, number | undefined>> {
        return new Map((await this.all(lane)).map((s) => [s.key, s.every]));
    }

    /** Where in its interval each job scheduler runs (ms after a multiple of it). */
    async phases(): Promise<number[]> {
        return (await this.all()).flatMap((s) => (s.every && s.next ? [s.next % s.every] : []));
    }

    /** Each job scheduler's interval and next due time (ms), by monitor id. */
    async nextRuns(): Promise<Map<string, { every: number; next: number }>> {
        return new Map(
            (await this.all()).flatMap((s) => (s.every && s.next ? [[s.key, { every: s.every, next: s.next }]] : []))
        );
    }

    /** The job schedulers of both queues; one monitor in both counts twice. */
    async count(): Promise<number> {
        return (await this.queue.getJobSchedulersCount()) + (await this.chainQueue.getJobSchedulersCount());
    }

    /** An event as if a console emitted it (the test writes rows directly, then tells the consoles). */
    async emit(event: AppEvent): Promise<void> {
        await this.redis.publish('node-monitor:events', JSON.stringify({ from: 'test', event }));
    }

    async close(): Promise<void> {
        await this.queue.close();
        await this.chainQueue.close();
        this.redis.disconnect();
    }
}
