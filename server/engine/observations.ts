import type { Redis } from 'ioredis';
import type { Observation } from './engine';

const LATEST = 'node-monitor:observations';
const SUCCEEDED = 'node-monitor:observations:succeeded';

/** Checks are sent to Redis this often, many in one call: /metrics is this much behind the checks at most. */
const SEND_MS = 1000;

/**
 * For each group of four arguments (monitor id, checkedAt, durationMs, level): keeps `checkedAt:durationMs:level` at
 * the monitor's field of KEYS[1] unless a later check is already there (two workers that committed slots one after
 * the other may send in the other order), and the check's time in KEYS[2] when it was not in error.
 */
const RECORD = `
for i = 1, #ARGV, 4 do
    local id, at, ms, level = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
    local old = redis.call('HGET', KEYS[1], id)
    local newer = false
    if old then
        local was = tonumber(string.match(old, '^([%d.]+):'))
        newer = was ~= nil and was > tonumber(at)
    end
    if not newer then
        redis.call('HSET', KEYS[1], id, at .. ':' .. ms .. ':' .. level)
        if level ~= 'error' then redis.call('HSET', KEYS[2], id, at) end
    end
end
return 1`;

/**
 * The latest check of every monitor in the cluster profile, whichever worker ran it, for /metrics: workers serve no
 * HTTP, and each saw only the checks it ran, so each records what it committed here and any process's page reads
 * all of it (server/metrics/prometheus.ts). The embedded profile's engine keeps them in its own memory instead.
 */
export class SharedObservations {
    /** Checks not sent yet, the latest per monitor, and who waits for them to be sent. */
    private unsent = new Map<number, Omit<Observation, 'succeededAt'>>();
    private waiting: { resolve: () => void; reject: (err: unknown) => void }[] = [];
    private timer: NodeJS.Timeout | null = null;

    constructor(private readonly redis: Redis) {}

    /**
     * The check of `monitorId` just saved; `succeededAt` is worked out here from every worker's checks. Sent with the
     * others of the next second, in one call: one per check cost Redis and the worker more than the rest of /metrics.
     */
    record(monitorId: number, o: Omit<Observation, 'succeededAt'>): Promise<void> {
        this.unsent.set(monitorId, o);
        this.timer ??= setTimeout(() => void this.send(), SEND_MS).unref();
        return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
    }

    private async send(): Promise<void> {
        this.timer = null;
        const [unsent, waiting] = [this.unsent, this.waiting];
        this.unsent = new Map();
        this.waiting = [];
        const args = [...unsent].flatMap(([id, o]) => [
            String(id),
            String(Math.round(o.checkedAt)),
            String(Math.round(o.durationMs * 1000) / 1000),
            o.level,
        ]);
        try {
            await this.redis.eval(RECORD, 2, LATEST, SUCCEEDED, ...args);
            for (const w of waiting) w.resolve();
        } catch (err) {
            for (const w of waiting) w.reject(err);
        }
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
