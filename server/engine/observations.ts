import type { Redis } from 'ioredis';
import type { Observation } from './engine';
import { type ChainFigures, type CheckFigures, figureEntries, readFigures } from './shared-figures';

const LATEST = 'node-monitor:observations';
const SUCCEEDED = 'node-monitor:observations:succeeded';
/** The chain, validator and disk figures of the latest checks (server/engine/shared-figures.ts), for a web's page. */
const FIGURES = 'node-monitor:observations:figures';

/** Checks are sent to Redis this often, many in one call: /metrics is this much behind the checks at most. */
const SEND_MS = 1000;
/** How often a worker's send also drops the figures past their time (deleted monitors nobody's page forgot). */
const PRUNE_MS = 60_000;

/**
 * ARGV[1] is how many of the arguments from ARGV[4] on are checks. For each group of four of those (monitor id,
 * checkedAt, durationMs, level): keeps `checkedAt:durationMs:level` at the monitor's field of KEYS[1] unless a later
 * check is already there (two workers that committed slots one after the other may send in the other order), and the
 * check's time in KEYS[2] when it was not in error. The pairs after them are figure fields and values of KEYS[3],
 * kept on the same rule; KEYS[3] then lives at least ARGV[2] ms more, so it goes once no worker writes. ARGV[3], when
 * not empty, is the time before which figures are dropped.
 */
const RECORD = `
local n = tonumber(ARGV[1])
for i = 4, 3 + n, 4 do
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
local figures = false
for i = 4 + n, #ARGV, 2 do
    local old = redis.call('HGET', KEYS[3], ARGV[i])
    local was = old and tonumber(string.match(old, '^(%d+)|'))
    if not was or was <= tonumber(string.match(ARGV[i + 1], '^(%d+)|')) then
        redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1])
    end
    figures = true
end
if figures and redis.call('PTTL', KEYS[3]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[3], ARGV[2]) end
if ARGV[3] ~= '' then
    local now, all = tonumber(ARGV[3]), redis.call('HGETALL', KEYS[3])
    for j = 1, #all, 2 do
        local untilMs = tonumber(string.match(all[j + 1], '^%d+|(%d+)|'))
        if not untilMs or untilMs < now then redis.call('HDEL', KEYS[3], all[j]) end
    end
end
return 1`;

/** The time a figure value (`checkedAt|until|json`) was read at. */
const checkedAtOf = (value: string) => Number(value.slice(0, value.indexOf('|')));

/**
 * Drops the fields of KEYS[1] from ARGV[2] on whose time (`checkedAt|until|…`) is still before ARGV[1]: a page read
 * them past their time, and a worker that refreshed one since keeps its fresh figure.
 */
const DROP_EXPIRED = `
local now = tonumber(ARGV[1])
for i = 2, #ARGV do
    local v = redis.call('HGET', KEYS[1], ARGV[i])
    local untilMs = v and tonumber(string.match(v, '^%d+|(%d+)|'))
    if v and (not untilMs or untilMs < now) then redis.call('HDEL', KEYS[1], ARGV[i]) end
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
    /** Figure fields not sent yet, the latest check's per field, and the longest life among them. */
    private unsentFigures = new Map<string, string>();
    private unsentLifeMs = 0;
    private prunedAt = Date.now();
    private waiting: { resolve: () => void; reject: (err: unknown) => void }[] = [];
    private timer: NodeJS.Timeout | null = null;

    constructor(private readonly redis: Redis) {}

    /**
     * The check of `monitorId` just saved; `succeededAt` is worked out here from every worker's checks. Sent with the
     * others of the next second, in one call: one per check cost Redis and the worker more than the rest of /metrics.
     * `figures`, what the check read for the chain families, rides in the same call.
     */
    record(monitorId: number, o: Omit<Observation, 'succeededAt'>, figures?: CheckFigures): Promise<void> {
        this.unsent.set(monitorId, o);
        if (figures) {
            // Several monitors share a configuration's or server's field: the latest check wins, as in Redis.
            for (const [field, value] of figureEntries(o.checkedAt, figures)) {
                const held = this.unsentFigures.get(field);
                if (held === undefined || checkedAtOf(held) <= checkedAtOf(value)) this.unsentFigures.set(field, value);
            }
            this.unsentLifeMs = Math.max(this.unsentLifeMs, figures.until - o.checkedAt);
        }
        this.timer ??= setTimeout(() => void this.send(), SEND_MS).unref();
        return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
    }

    private async send(): Promise<void> {
        this.timer = null;
        const [unsent, figures, waiting] = [this.unsent, this.unsentFigures, this.waiting];
        const lifeMs = this.unsentLifeMs;
        this.unsent = new Map();
        this.unsentFigures = new Map();
        this.unsentLifeMs = 0;
        this.waiting = [];
        const now = Date.now();
        const prune = now - this.prunedAt >= PRUNE_MS;
        if (prune) this.prunedAt = now;
        const args = [...unsent].flatMap(([id, o]) => [
            String(id),
            String(Math.round(o.checkedAt)),
            String(Math.round(o.durationMs * 1000) / 1000),
            o.level,
        ]);
        try {
            await this.redis.eval(
                RECORD,
                3,
                LATEST,
                SUCCEEDED,
                FIGURES,
                String(args.length),
                String(Math.ceil(lifeMs)),
                prune ? String(now) : '',
                ...args,
                ...[...figures].flat()
            );
            for (const w of waiting) w.resolve();
        } catch (err) {
            for (const w of waiting) w.reject(err);
        }
    }

    /**
     * Drops monitors no longer checked (deleted, disabled), figure fields of what is no longer checked, and those a
     * page found past their time unless refreshed since, so the hashes hold only what pages report.
     */
    async forget(
        monitorIds: number[],
        figureFields: string[] = [],
        expired: string[] = [],
        nowMs = Date.now()
    ): Promise<void> {
        if (monitorIds.length === 0 && figureFields.length === 0 && expired.length === 0) return;
        const fields = monitorIds.map(String);
        const multi = this.redis.multi();
        if (fields.length > 0) multi.hdel(LATEST, ...fields).hdel(SUCCEEDED, ...fields);
        if (figureFields.length > 0) multi.hdel(FIGURES, ...figureFields);
        if (expired.length > 0) multi.eval(DROP_EXPIRED, 1, FIGURES, String(nowMs), ...expired);
        await multi.exec();
    }

    /** The chain, validator and disk figures still in their time, and the fields past it. */
    async figures(nowMs = Date.now()): Promise<{ figures: ChainFigures; expired: string[] }> {
        return readFigures(await this.redis.hgetall(FIGURES), nowMs);
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
