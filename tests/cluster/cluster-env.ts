import { randomBytes } from 'node:crypto';
import { type Database, openDatabase } from '../../server/db/client';
import { type ChainSim, type SimOptions, startChainSim } from '../../tools/chain-sim';
import { type FakeTelegram, startFakeTelegram } from '../support/fake-telegram';
import { OwnRedis } from './own-redis';
import {
    type ConsoleProcess,
    clusterDatabase,
    endConsole,
    REDIS_URL,
    RedisProbe,
    type Role,
    startConsole,
} from './processes';

export interface ClusterEnvOptions {
    /** Names the file's database (`nm_<name>_<random>`) and its consoles' data dir. */
    name: string;
    /** Starts the chain simulator with these options; a file whose monitors read no node leaves it out. */
    sim?: SimOptions;
    /** A Redis of the file's own that the test may crash and start again, instead of the machine's (REDIS_DB). */
    ownRedis?: boolean;
}

/**
 * What a cluster test file runs on: a database of its own on the machine's PostgreSQL, a Redis database emptied
 * before and after, the chain simulator, a fake Telegram, and the consoles it starts, which `stop` ends with the rest.
 */
export class ClusterEnv {
    readonly dbName: string;
    readonly appSecret = randomBytes(32).toString('hex');
    /** What every console starts with: this database and Redis, the fake Telegram, a data dir of the file's own. */
    env: Record<string, string> = {};
    private opened: Database | null = null;
    private probe: RedisProbe | null = null;
    private fakeTelegram: FakeTelegram | null = null;
    private simulator: ChainSim | null = null;
    private own: OwnRedis | null = null;
    private drop: (() => Promise<void>) | null = null;
    private readonly consoles: ConsoleProcess[] = [];

    constructor(name: string) {
        this.dbName = `nm_${name}_${randomBytes(6).toString('hex')}`;
    }

    get database(): Database {
        return made(this.opened, 'database');
    }

    get db(): Database['db'] {
        return this.database.db;
    }

    /** The Redis the consoles share, as the test reads it. */
    get redis(): RedisProbe {
        return made(this.probe, 'Redis probe');
    }

    get telegram(): FakeTelegram {
        return made(this.fakeTelegram, 'fake Telegram');
    }

    get sim(): ChainSim {
        return made(this.simulator, 'chain simulator (pass `sim` to clusterEnv)');
    }

    get ownRedis(): OwnRedis {
        return made(this.own, 'Redis of its own (pass `ownRedis` to clusterEnv)');
    }

    async build(options: ClusterEnvOptions): Promise<void> {
        const created = await clusterDatabase(this.dbName);
        this.drop = created.drop;
        this.opened = await openDatabase({ databaseUrl: created.url, dataDir: '' });
        if (options.ownRedis) this.own = await OwnRedis.start();
        const redisUrl = this.own?.url ?? REDIS_URL;
        this.probe = new RedisProbe(redisUrl);
        if (!this.own) await this.probe.flush();
        if (options.sim) this.simulator = await startChainSim(options.sim);
        this.fakeTelegram = await startFakeTelegram();
        this.env = {
            DATABASE_URL: created.url,
            REDIS_URL: redisUrl,
            APP_SECRET: this.appSecret,
            ADMIN_PASSWORD: 'admin-password-1',
            DATA_DIR: `/tmp/nm-cluster-${this.dbName}`,
            TELEGRAM_API_URL: this.fakeTelegram.url,
        };
    }

    /** Starts a console on `env` (with `extra` over it), which `stop` ends if the test has not. */
    async start(role: Exclude<Role, 'probe'>, extra: Record<string, string> = {}): Promise<ConsoleProcess> {
        const p = await startConsole(role, { ...this.env, ...extra });
        this.consoles.push(p);
        return p;
    }

    /** Where the probes keep their data: a test looks there for files a probe must not write. */
    get probeDataDir(): string {
        return `/tmp/nm-probe-${this.dbName}`;
    }

    /**
     * Starts a probe for `location`, given the queue's address (this cluster's Redis unless `redisUrl`) and its
     * location, nothing else: no database, no secret; inside network namespace `netns` when given.
     */
    async startProbe(location: string, redisUrl = this.env.REDIS_URL ?? '', netns?: string): Promise<ConsoleProcess> {
        const env = { DATABASE_URL: '', APP_SECRET: '', DATA_DIR: this.probeDataDir, REDIS_URL: redisUrl };
        const p = await startConsole('probe', { ...env, PROBE_LOCATION: location }, 60_000, netns);
        this.consoles.push(p);
        return p;
    }

    /** Ends every console (SIGTERM, then SIGKILL), empties the shared Redis and drops the database. */
    async stop(): Promise<void> {
        await Promise.all(this.consoles.map((p) => endConsole(p)));
        if (!this.own) await this.probe?.flush();
        await this.probe?.close();
        await this.own?.close();
        await this.opened?.close();
        await this.simulator?.close();
        await this.fakeTelegram?.close();
        await this.drop?.();
    }
}

/** Builds a file's cluster; what was made before a failure is torn down again. */
export async function clusterEnv(options: ClusterEnvOptions): Promise<ClusterEnv> {
    const cluster = new ClusterEnv(options.name);
    try {
        await cluster.build(options);
    } catch (error) {
        await cluster.stop();
        throw error;
    }
    return cluster;
}

function made<T>(part: T | null, what: string): T {
    if (!part) throw new Error(`this cluster has no ${what}`);
    return part;
}
