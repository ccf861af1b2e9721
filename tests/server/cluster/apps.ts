import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { AppConfig } from '../../../server/config';
import { redisConnection } from '../../../server/db/redis';
import { startAppOn, type TestApp, throwAwayPostgres } from '../helpers';

/**
 * Several apps in this one test process standing for the cluster profile's processes: one PostgreSQL database (the
 * machine's, also on the PGlite pass, since PGlite is one process's file) and one Redis database, emptied first.
 * Each file names a Redis database (not the chaos suite's 11 nor the cluster bench's 9), since files run side by side;
 * REDIS_DB, when set, replaces them all, for a machine where others use those (then run the files one at a time).
 */
const redisUrl = (db: number) =>
    `${process.env.REDIS_BASE_URL ?? 'redis://127.0.0.1:6379'}/${process.env.REDIS_DB ?? db}`;
const PG_BASE = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface ClusterApps {
    apps: TestApp[];
    /** The `i`th app's Fastify instance. */
    web(i: number): FastifyInstance;
    /** A Redis client on the apps' database, for what a test reads or clears there. */
    redis: Redis;
    close(): Promise<void>;
}

/**
 * `n` apps on one fresh database and Redis database `redisDb`, emptied first; started one after another, each with
 * `overrides` or, given a list, its own entry of it.
 */
export async function clusterApps(
    n: number,
    redisDb: number,
    overrides: Partial<AppConfig> | Partial<AppConfig>[] = {},
    /** Leaves the Redis database as it is: for a file whose keys another file's emptying does not upset. */
    keep = false
): Promise<ClusterApps> {
    const url = redisUrl(redisDb);
    const redis = new Redis(redisConnection(url));
    if (!keep) await redis.flushdb();
    const db = await throwAwayPostgres(PG_BASE);
    const appSecret = randomBytes(32).toString('hex');
    const apps: TestApp[] = [];
    for (let i = 0; i < n; i++)
        apps.push(
            await startAppOn({
                databaseUrl: db.url,
                appSecret,
                redisUrl: url,
                ...(Array.isArray(overrides) ? overrides[i] : overrides),
            })
        );
    return {
        apps,
        web: (i) => {
            const t = apps[i];
            if (!t) throw new Error(`no app ${i}`);
            return t.app;
        },
        redis,
        close: async () => {
            for (const a of apps) await a.close();
            await db.drop();
            if (!keep) await redis.flushdb();
            redis.disconnect();
        },
    };
}
