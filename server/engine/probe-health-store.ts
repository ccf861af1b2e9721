import type { Redis } from 'ioredis';
import type { Sighting } from './probe-health';

/**
 * What the cluster shares in Redis to tell a probe's own trouble apart (probe-health.ts). Outside the
 * `node-monitor:locations:` keys a probe's Redis user may write (probes.ts), so a stolen probe can forge its
 * readings but not its standing. Every worker that weighs readings writes each location's sighting of a monitor;
 * the worker holding the cluster-wide duties reads them, keeps the set of locations cut off and of those told silent,
 * and every worker reads the cut set back into its weighing.
 */
const SIGHTINGS = 'node-monitor:probe-health:sightings:';
/**
 * The locations with a sightings hash: read instead of a SCAN, which would walk the whole database (several keys
 * per monitor) at every look. A location whose hash expired leaves it at the next read.
 */
const SIGHTED = 'node-monitor:probe-health:sighted';
const CUT = 'node-monitor:probe-health:cut';
const SILENT = 'node-monitor:probe-health:silent';
/** Every location seen alive once: only these can fall silent (a location named and never run is a typo). */
const SEEN = 'node-monitor:probe-health:seen';
/** Sightings older than this no longer say who checks from a location; a location's hash goes once unused. */
const KEEP_MS = 10 * 60_000;

/** One location's sighting of one monitor, as the watcher reads it back. */
export interface StoredSighting {
    monitorId: number;
    companyId: number;
    sighting: Sighting;
    /** Within its monitor's last interval or two: it counts toward the location's tally. */
    fresh: boolean;
}

/** A location told cut off or silent, and whom: so its end is told to the same channels, by whichever worker. */
export interface ToldEpisode {
    /** The notices' incidentId, the same for the notice and its end. */
    id: string;
    since: number;
    companies: { id: number; name: string; channels: number[] }[];
}

/** Records each location's sighting of one monitor; it counts for `freshMs` (its interval or two). */
export async function recordSightings(
    redis: Redis,
    monitor: { id: number; companyId: number },
    sightings: { location: string; sighting: Sighting }[],
    freshMs: number,
    nowMs = Date.now()
): Promise<void> {
    if (sightings.length === 0) return;
    const batch = redis.multi();
    for (const { location, sighting } of sightings) {
        const key = `${SIGHTINGS}${location}`;
        batch.hset(key, String(monitor.id), `${sighting}|${monitor.companyId}|${nowMs + freshMs}|${nowMs}`);
        batch.pexpire(key, KEEP_MS);
        batch.sadd(SIGHTED, location);
    }
    await batch.exec();
}

/** Every location's sightings kept, the stale ones dropped. */
export async function readSightings(redis: Redis, nowMs = Date.now()): Promise<Map<string, StoredSighting[]>> {
    const out = new Map<string, StoredSighting[]>();
    const locations = await redis.smembers(SIGHTED);
    const read = locations.length
        ? await redis.multi(locations.map((l) => ['hgetall', `${SIGHTINGS}${l}`])).exec()
        : [];
    const gone: string[] = [];
    for (const [i, location] of locations.entries()) {
        const key = `${SIGHTINGS}${location}`;
        const fields = (read?.[i]?.[1] ?? {}) as Record<string, string>;
        if (Object.keys(fields).length === 0) {
            gone.push(location);
            continue;
        }
        const list: StoredSighting[] = [];
        const stale: string[] = [];
        for (const [field, value] of Object.entries(fields)) {
            const [sighting, companyId, freshUntil, at] = value.split('|');
            if (nowMs - Number(at) > KEEP_MS) {
                stale.push(field);
                continue;
            }
            list.push({
                monitorId: Number(field),
                companyId: Number(companyId),
                sighting: sighting as Sighting,
                fresh: Number(freshUntil) >= nowMs,
            });
        }
        if (stale.length) await redis.hdel(key, ...stale);
        out.set(location, list);
    }
    if (gone.length) await redis.srem(SIGHTED, ...gone);
    return out;
}

/** The locations whose probes lost their own network, for the weighing. */
export const cutLocations = async (redis: Redis): Promise<string[]> => redis.hkeys(CUT);

export async function toldEpisodes(
    redis: Redis
): Promise<{ cut: Map<string, ToldEpisode>; silent: Map<string, ToldEpisode> }> {
    const parse = (h: Record<string, string>) =>
        new Map(Object.entries(h).map(([location, json]) => [location, JSON.parse(json) as ToldEpisode]));
    const [cut, silent] = await Promise.all([redis.hgetall(CUT), redis.hgetall(SILENT)]);
    return { cut: parse(cut), silent: parse(silent) };
}

export async function openEpisode(
    redis: Redis,
    kind: 'cut' | 'silent',
    location: string,
    e: ToldEpisode
): Promise<void> {
    await redis.hset(kind === 'cut' ? CUT : SILENT, location, JSON.stringify(e));
}

export async function closeEpisode(redis: Redis, kind: 'cut' | 'silent', location: string): Promise<void> {
    await redis.hdel(kind === 'cut' ? CUT : SILENT, location);
}

/** Notes the live locations as seen, and returns every location ever seen alive. */
export async function seenLocations(redis: Redis, live: string[]): Promise<string[]> {
    if (live.length) await redis.sadd(SEEN, ...live);
    return (await redis.smembers(SEEN)).sort();
}
