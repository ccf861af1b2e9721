import type { ServiceType } from '../../common/service-types';
import { createCometClient } from '../clients/cometbft';
import { createRestClient } from '../clients/cosmos-rest';
import type { HttpClient } from '../clients/http';
import { errorText, formatDuration } from './texts';

/**
 * Where a validator-duty monitor reads its chain: any fresh node of the chain, not only its own server's. A source is
 * one server of the configuration (its rpc and rest services) or one of the configuration's chain endpoints.
 *
 * A source is fresh when its latest block is at most max(30 s, 3 block times) old and its height is at most
 * MAX_BEHIND blocks under the best source's. The monitor's own server is preferred while fresh; otherwise the
 * highest fresh source with a rest service (every duty check reads rest); an rpc service comes from the chosen
 * source or, when it has none, from the next fresh one that has. No fresh source is an error naming each source's
 * state, never a reading.
 */
export interface ChainSource {
    name: string;
    /** The server this source is, or null for a chain endpoint. */
    serverId: number | null;
    rpc: string | null;
    rest: string | null;
}

/** Which source a reading came from, as the monitor's message and history name it. */
export interface SourceUsed {
    name: string;
    height: number;
    own: boolean;
}

/** What one source showed at a check: its latest block, or null heights when it could not be read. */
export interface SourceSeen {
    name: string;
    height: number | null;
    blockTimeMs: number | null;
    /** Milliseconds per block as this source's blocks show it; null before two were seen. */
    blockIntervalMs: number | null;
}

export const NO_FRESH_SOURCE = 'no fresh source:';
export const MIN_FRESH_MS = 30_000;
export const MAX_BEHIND = 2;
/** N monitors of one chain share one status read per source within this time. */
const STATUS_TTL_MS = 2000;
const PROBE_TIMEOUT_MS = 5000;

type Probe = { ok: true; height: number; timeMs: number | null } | { ok: false; error: string };

const probes = new Map<string, { at: number; probe: Promise<Probe> }>();
/** Per source, an earlier block seen (a lower height), from which its block time is estimated. */
const earlier = new Map<string, { height: number; timeMs: number }>();
const latest = new Map<string, { height: number; timeMs: number }>();

const probeUrl = (s: ChainSource) => (s.rest ? `rest ${s.rest}` : `rpc ${s.rpc}`);

async function probeOnce(http: HttpClient, s: ChainSource): Promise<Probe> {
    // Not the caller's signal: other monitors share this read, and one check's timeout must not fail theirs.
    const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
    try {
        if (s.rest) {
            const b = await createRestClient(http, s.rest, signal).latestBlock();
            return { ok: true, height: b.height, timeMs: b.timeMs };
        }
        const st = await createCometClient(http, s.rpc ?? '', signal).status();
        return { ok: true, height: st.latestHeight, timeMs: st.latestBlockTimeMs };
    } catch (err) {
        return { ok: false, error: errorText(err) };
    }
}

/** The source's latest block, read at most once per STATUS_TTL_MS for everyone asking with the same policy. */
function probe(http: HttpClient, s: ChainSource, scope: string, nowMs: number): Promise<Probe> {
    const key = `${scope}|${probeUrl(s)}`;
    const cached = probes.get(key);
    if (cached && nowMs - cached.at < STATUS_TTL_MS) return cached.probe;
    if (probes.size > 5000) probes.clear();
    const p = probeOnce(http, s).then((r) => {
        if (r.ok && r.timeMs !== null) remember(probeUrl(s), r.height, r.timeMs);
        return r;
    });
    probes.set(key, { at: nowMs, probe: p });
    return p;
}

function remember(url: string, height: number, timeMs: number): void {
    const last = latest.get(url);
    if (last && height > last.height) earlier.set(url, last);
    if (!last || height !== last.height) latest.set(url, { height, timeMs });
}

/** Milliseconds per block as the source's last two distinct blocks show it, or null before there are two. */
function blockTimeOf(s: ChainSource): number | null {
    const a = earlier.get(probeUrl(s));
    const b = latest.get(probeUrl(s));
    if (!a || !b || b.height <= a.height || b.timeMs <= a.timeMs) return null;
    return (b.timeMs - a.timeMs) / (b.height - a.height);
}

const heightText = (n: number) => n.toLocaleString('en-US');

/** "refused", "timed out", or the client's sentence: how an unreadable source is named in the error. */
function failureWord(error: string): string {
    if (/refused the connection/.test(error)) return 'refused';
    if (/timeout|timed out|did not answer within/i.test(error)) return 'timed out';
    return `unreadable (${error})`;
}

export interface Chosen {
    services: { type: ServiceType; address: string }[];
    used: SourceUsed;
    seen: SourceSeen[];
}

/**
 * The source a duty check reads through, and the services to give it; throws `no fresh source: …` naming why each
 * source was passed over.
 */
export async function chooseSource(
    sources: readonly ChainSource[],
    ownServerId: number | null,
    http: HttpClient,
    scope: string,
    nowMs = Date.now()
): Promise<Chosen> {
    const read = await Promise.all(sources.map((s) => probe(http, s, scope, nowMs)));
    const seen = sources.map((s, i) => ({ s, r: read[i] as Probe }));
    const heights = seen.flatMap(({ r }) => (r.ok ? [r.height] : []));
    const best = heights.length ? Math.max(...heights) : 0;
    const bestSource = seen.find(({ r }) => r.ok && r.height === best)?.s;
    const blockMs = bestSource ? blockTimeOf(bestSource) : null;
    const freshMs = Math.max(MIN_FRESH_MS, 3 * (blockMs ?? 0));
    const why = new Map<ChainSource, string>();
    const fresh: { s: ChainSource; height: number; timeMs: number }[] = [];
    for (const { s, r } of seen) {
        if (!r.ok) why.set(s, `${s.name} ${failureWord(r.error)}`);
        else if (r.timeMs === null || nowMs - r.timeMs > freshMs)
            why.set(
                s,
                `${s.name} stuck at ${heightText(r.height)}${r.timeMs === null ? '' : ` for ${formatDuration(nowMs - r.timeMs)}`}`
            );
        else if (best - r.height > MAX_BEHIND) why.set(s, `${s.name} ${best - r.height} blocks behind`);
        else fresh.push({ s, height: r.height, timeMs: r.timeMs });
    }
    fresh.sort((a, b) => b.height - a.height || b.timeMs - a.timeMs);
    const withRest = fresh.filter((f) => f.s.rest);
    const chosen =
        withRest.find((f) => ownServerId !== null && f.s.serverId === ownServerId) ?? (withRest[0] || undefined);
    if (!chosen) {
        const passed = sources.map((s) => why.get(s) ?? `${s.name} has no rest service`);
        throw new Error(`${NO_FRESH_SOURCE} ${passed.join(', ') || 'the configuration has no rpc or rest service'}`);
    }
    const rpc = chosen.s.rpc ?? fresh.find((f) => f.s.rpc)?.s.rpc ?? null;
    return {
        services: [
            { type: 'rest', address: chosen.s.rest as string },
            ...(rpc ? [{ type: 'rpc' as const, address: rpc }] : []),
        ],
        used: {
            name: chosen.s.name,
            height: chosen.height,
            own: ownServerId !== null && chosen.s.serverId === ownServerId,
        },
        seen: seen.map(({ s, r }) => ({
            name: s.name,
            height: r.ok ? r.height : null,
            blockTimeMs: r.ok ? r.timeMs : null,
            blockIntervalMs: blockTimeOf(s),
        })),
    };
}

/** How a message names the source a duty check read through. */
export const sourceText = (used: SourceUsed) => `read through ${used.name} at height ${heightText(used.height)}`;
