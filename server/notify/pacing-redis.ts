import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { SendLog } from './pacing';

const KEY = 'node-monitor:pacing:';

/**
 * The cluster profile's send log: one Redis sorted set per channel, scored by the time each message was tried (the
 * dispatcher's clock, not Redis's), so the workers that take turns on a channel share its messages per window.
 * Each set expires a window after its last entry.
 */
export class RedisSendLog implements SendLog {
    private readonly self = randomUUID();
    private n = 0;

    constructor(private readonly redis: Redis) {}

    async add(channelId: number, at: number, windowMs: number): Promise<void> {
        await this.redis
            .multi()
            .zadd(KEY + channelId, at, `${at}:${this.self}:${++this.n}`)
            .pexpire(KEY + channelId, windowMs)
            .exec();
    }

    async countAfter(channelId: number, since: number): Promise<number> {
        const answers = await this.redis
            .multi()
            .zremrangebyscore(KEY + channelId, '-inf', since)
            .zcard(KEY + channelId)
            .exec();
        const [err, count] = answers?.[1] ?? [new Error('no answer from Redis')];
        if (err) throw err;
        return Number(count);
    }
}
