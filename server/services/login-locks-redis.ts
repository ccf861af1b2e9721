import type { Redis } from 'ioredis';
import { type FailureRun, isLocked, type LoginLockStore } from './login-locks';

const LOCKS = 'node-monitor:login:locks:';
const UNKNOWN = 'node-monitor:login:unknown:';
/** As LoginLocks bounds an account's addresses in memory. */
const MAX_ADDRESSES_PER_ACCOUNT = 1_000;

/**
 * One more failure in the run stored at field ARGV[1] of hash KEYS[1] ("failures:last ms"), started afresh once
 * its last failure is ARGV[3] ms old; the hash expires with the run, and holds at most ARGV[4] fields.
 */
const COUNT = `
local now = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local v = redis.call('HGET', KEYS[1], ARGV[1])
local n = 0
if v then
    local c, last = string.match(v, '^(%d+):(%d+)$')
    if c and now - tonumber(last) < window then n = tonumber(c) end
elseif redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then
    local drop = redis.call('HRANDFIELD', KEYS[1])
    if drop then redis.call('HDEL', KEYS[1], drop) end
end
redis.call('HSET', KEYS[1], ARGV[1], (n + 1) .. ':' .. ARGV[2])
redis.call('PEXPIRE', KEYS[1], window)
return n + 1`;

function parse(v: string | null): FailureRun {
    const [n, last] = (v ?? '').split(':').map(Number);
    return n && last
        ? { failedLogins: n, lastFailedLoginAt: new Date(last) }
        : { failedLogins: 0, lastFailedLoginAt: null };
}

/**
 * The sign-in locks of the cluster profile (the rules are LoginLocks'): every `web` process counts the failures of
 * an address on an account in one Redis hash per account, so failures spread over several processes lock out as
 * they would on one. Each hash expires when its run would have ended; Redis's clock is not used, the app's is.
 */
export class RedisLoginLocks implements LoginLockStore {
    constructor(
        private readonly redis: Redis,
        private readonly windowMs: number
    ) {}

    async locked(username: string, address: string, accountFailures: number, now = Date.now()): Promise<boolean> {
        const run = parse(await this.redis.hget(LOCKS + username, address));
        return isLocked(run, accountFailures, this.windowMs, now);
    }

    async count(username: string, address: string, now = Date.now()): Promise<void> {
        await this.bump(LOCKS + username, address, now);
    }

    async forget(username: string): Promise<void> {
        await this.redis.del(LOCKS + username);
    }

    async unknownRun(username: string): Promise<FailureRun> {
        return parse(await this.redis.hget(UNKNOWN + username, 'run'));
    }

    async countUnknown(username: string, now = Date.now()): Promise<void> {
        await this.bump(UNKNOWN + username, 'run', now);
    }

    private async bump(key: string, field: string, now: number): Promise<void> {
        await this.redis.eval(
            COUNT,
            1,
            key,
            field,
            String(Math.round(now)),
            String(this.windowMs),
            String(MAX_ADDRESSES_PER_ACCOUNT)
        );
    }
}
