import type { Redis } from 'ioredis';

const KEY = 'node-monitor:company-slots:';
/**
 * How long a slot is held at most: longer than any check (15 s timeout, then its commit), so only a killed worker's
 * slots run out this way, and its company gets them back within it.
 */
export const SLOT_LEASE_MS = 60_000;

/**
 * Takes a slot in KEYS[1] (a sorted set of holders by lease end) for holder ARGV[3] unless ARGV[2] are held; leases
 * ended before ARGV[1] are dropped first.
 */
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[4]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`;

type AcquireCommand = (key: string, now: string, cap: string, holder: string, leaseMs: string) => Promise<unknown>;

/**
 * Each company's checks in flight across the cluster, against its `max_concurrent_checks`: the in-process
 * Scheduler's group caps, for the checks BullMQ hands to several workers (queue-scheduler.ts). A worker takes a slot
 * before a check and gives it back after; one that dies holding slots loses them after SLOT_LEASE_MS.
 */
export class CompanySlots {
    private readonly redis: Redis & { companySlotAcquire: AcquireCommand };

    constructor(redis: Redis) {
        // Run by its SHA (EVALSHA; ioredis sends the text again only should Redis have lost the script): every check
        // takes a slot, and sending and hashing the script's text each time cost both the worker and Redis.
        redis.defineCommand('companySlotAcquire', { numberOfKeys: 1, lua: ACQUIRE });
        this.redis = redis as Redis & { companySlotAcquire: AcquireCommand };
    }

    /** Whether `holder` got one of the company's `cap` slots. */
    async acquire(companyId: number, cap: number, holder: string): Promise<boolean> {
        const got = await this.redis.companySlotAcquire(
            KEY + companyId,
            String(Date.now()),
            String(cap),
            holder,
            String(SLOT_LEASE_MS)
        );
        return got === 1;
    }

    async release(companyId: number, holder: string): Promise<void> {
        await this.redis.zrem(KEY + companyId, holder);
    }
}
