import type { Redis } from 'ioredis';
import type { Observation } from './engine';

const LATEST = 'node-monitor:observations';
const SUCCEEDED = 'node-monitor:observations:succeeded';

/**
 * Keeps `checkedAt:durationMs:level` at field ARGV[1] of KEYS[1] unless a later check is already there (two workers
 * that committed slots one after the other may write in the other order), and the check's time in KEYS[2] when it
 * was not in error.
 */
const RECORD = `
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old then
    local at = tonumber(string.match(old, '^([%d.]+):'))
    if at and at > tonumber(ARGV[2]) then return 0 end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ':' .. ARGV[3] .. ':' .. ARGV[4])
if ARGV[4] ~= 'error' then redis.call('HSET', KEYS[2], ARGV[1], ARGV[2]) end
return 1`;

/**
 * The latest check of every monitor in the cluster profile, whichever worker ran it, for /metrics: workers serve no
 * HTTP, and each saw only the checks it ran, so each records what it committed here and any process's page reads
 * all of it (server/metrics/prometheus.ts). The embedded profile's engine keeps them in its own memory instead.
 */
export class SharedObservations {
    constructor(private readonly redis: Redis) {}

    /** The check of `monitorId` just saved; `succeededAt` is worked out here from every worker's checks. */
    async record(monitorId: number, o: Omit<Observation, 'succeededAt'>): Promise<void> {
        await this.redis.eval(
            RECORD,
            2,
            LATEST,
            SUCCEEDED,
            String(monitorId),
            String(Math.round(o.checkedAt)),
            String(Math.round(o.durationMs * 1000) / 1000),
            o.level
        );
    }

    /** Drops monitors no longer checked (deleted, disabled), so the hashes hold only what pages report. */
    async forget(monitorIds: number[]): Promise<void> {
        if (monitorIds.length === 0) return;
        const fields = monitorIds.map(String);
        await this.redis
            .multi()
            .hdel(LATEST, ...fields)
            .hdel(SUCCEEDED, ...fields)
            .exec();
    }

    async all(): Promise<Map<number, Observation>> {
        const [latest, succeeded] = await Promise.all([this.redis.hgetall(LATEST), this.redis.hgetall(SUCCEEDED)]);
        const out = new Map<number, Observation>();
        for (const [id, v] of Object.entries(latest)) {
            const [checkedAt, durationMs, level] = v.split(':');
            if (level !== 'ok' && level !== 'warning' && level !== 'error') continue;
            const ok = succeeded[id];
            out.set(Number(id), {
                checkedAt: Number(checkedAt),
                durationMs: Number(durationMs),
                level,
                succeededAt: ok ? Number(ok) : null,
            });
        }
        return out;
    }
}
