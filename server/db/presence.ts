import type { Redis } from 'ioredis';

/**
 * Keys that say a process is alive (each expires unless renewed), listed in a set beside them: the live ones are
 * read in two round trips, where a SCAN would walk the whole database, which holds several keys per monitor (its job
 * scheduler and jobs). A key that expired leaves the set at the next read.
 */
export async function beat(redis: Redis, index: string, key: string, value: string, ttlMs: number): Promise<void> {
    await redis.multi().set(key, value, 'PX', ttlMs).sadd(index, key).exec();
}

export async function leave(redis: Redis, index: string, key: string): Promise<void> {
    await redis.multi().del(key).srem(index, key).exec();
}

/** The live keys of `index` with their values. */
export async function alive(redis: Redis, index: string): Promise<{ key: string; value: string }[]> {
    const keys = await redis.smembers(index);
    if (keys.length === 0) return [];
    const values = await redis.mget(...keys);
    const gone = keys.filter((_, i) => values[i] === null);
    if (gone.length) await redis.srem(index, ...gone);
    return keys.flatMap((key, i) => {
        const value = values[i];
        return value == null ? [] : [{ key, value }];
    });
}
