import { createCometClient } from '../../clients/cometbft';
import { createRestClient } from '../../clients/cosmos-rest';
import type { Check } from '../check';
import type { Verdict } from '../verdict';
import { alertSleepFor, finiteOrNull, formatDuration, numberSetting, serviceAddress, sleepIntervalFor } from './common';

/**
 * blockCheck: is the node making progress? Reads RPC `/status` (or, without an rpc service, REST blocks/latest
 * and syncing).
 *
 * A poll is a miss when the node cannot be read, or when the height did not advance and either its latest block
 * is stale (older than max(60 s, 6 × the observed block time): a frozen node can still say catching_up=false) or
 * more than twice the observed block time passed since it last advanced (so polling faster than blocks are made
 * is not a miss). `catching_up` is Error by itself.
 *
 *   misses = 0                    → ok
 *   0 < misses < miss_tolerance   → Warning
 *   misses ≥ miss_tolerance       → Error
 *   a good poll after miss_tolerance_period_seconds without a new miss → misses reset to 0
 */

export interface BlockMeasurement {
    source: 'rpc' | 'rest';
    /**
     * The chain id the node reports (`node_info.network`, or the REST block header's `chain_id`); chain-halt
     * detection pools heights by it. Absent when unknown: such a reading is never part of a chain's picture.
     */
    network?: string;
    height: number;
    blockTimeMs: number | null;
    catchingUp: boolean;
}

export interface BlockMemory {
    height: number | null;
    blockTimeMs: number | null;
    /** Our clock when the height last advanced. */
    advancedAtMs: number | null;
    /** Moving average of the chain's block time. */
    avgBlockMs: number | null;
    misses: number;
    lastMissAtMs: number | null;
    lastMissReason: string | null;
}

const INITIAL: BlockMemory = {
    height: null,
    blockTimeMs: null,
    advancedAtMs: null,
    avgBlockMs: null,
    misses: 0,
    lastMissAtMs: null,
    lastMissReason: null,
};

const MIN_STALE_MS = 60_000;
export const staleLimitMs = (avgBlockMs: number | null) => Math.max(MIN_STALE_MS, 6 * (avgBlockMs ?? 0));
/** How long a height may stand still before a poll counts as a miss: polling faster than blocks come is no miss. */
export const progressGraceMs = (avgBlockMs: number | null) => 2 * (avgBlockMs ?? 0);

/** Height, block time and how the moving average changes when a newer block is seen. */
function advance(m: BlockMemory, r: BlockMeasurement, nowMs: number): BlockMemory {
    let avg = m.avgBlockMs;
    if (m.height !== null && m.blockTimeMs !== null && r.blockTimeMs !== null && r.height > m.height) {
        const perBlock = (r.blockTimeMs - m.blockTimeMs) / (r.height - m.height);
        if (perBlock > 0 && perBlock < 3_600_000) avg = avg === null ? perBlock : avg * 0.8 + perBlock * 0.2;
    }
    return { ...m, height: r.height, blockTimeMs: r.blockTimeMs, advancedAtMs: nowMs, avgBlockMs: avg };
}

/**
 * Why this reading is a miss, or null. `m` is the memory before the reading. A stale block time alone is no miss
 * while the height advances (a node replaying old blocks is making progress, and the first reading has nothing to
 * compare with); with the height standing still it names the problem best.
 */
function missReason(m: BlockMemory, r: BlockMeasurement, nowMs: number): string | null {
    const advanced = m.height === null || r.height > m.height;
    const limit = staleLimitMs(m.avgBlockMs);
    const stale = r.blockTimeMs !== null && nowMs - r.blockTimeMs > limit;
    if (stale && !advanced) {
        return `Latest block ${r.height} is ${formatDuration(nowMs - (r.blockTimeMs ?? 0))} old (limit ${formatDuration(limit)})`;
    }
    const grace = progressGraceMs(m.avgBlockMs);
    if (!advanced && m.advancedAtMs !== null && nowMs - m.advancedAtMs > grace) {
        return `Height ${r.height} has not advanced for ${formatDuration(nowMs - m.advancedAtMs)}`;
    }
    return null;
}

function verdictFor(m: BlockMemory, tolerance: number): Verdict {
    if (m.misses === 0) return { level: 'ok', message: null };
    const counts = `${m.misses} poll${m.misses === 1 ? '' : 's'} without progress; tolerance ${tolerance}`;
    const level = m.misses >= tolerance ? 'error' : 'warning';
    return { level, message: `${m.lastMissReason ?? 'No progress'} (${counts})` };
}

export const blockCheckCheck: Check<BlockMeasurement, BlockMemory> = {
    intervalSeconds: sleepIntervalFor('blockCheck'),
    alertSleepMinutes: alertSleepFor('blockCheck'),
    readingValue: (reading) => (reading.ok ? finiteOrNull(reading.value.height) : null),

    settle(shared, { target, reading, memory, verdict, prev, next, nowMs }) {
        // The check's own grace, with a floor: a halt must be told from polls between two blocks.
        const grace = Math.max(1000, progressGraceMs(memory?.avgBlockMs ?? null));
        return shared.chainHalts.adjust(target, reading, verdict, grace, prev, next, nowMs);
    },

    heldText(shared, monitorId) {
        const waiting = shared.upgradeHolds.waitingAt(monitorId);
        return waiting && `Waiting at upgrade height ${waiting.height} (plan ${waiting.name})`;
    },

    async read(ctx) {
        const rpc = serviceAddress(ctx, 'rpc');
        if (rpc) {
            const s = await createCometClient(ctx.http, rpc, ctx.signal).status();
            return {
                source: 'rpc',
                network: s.network,
                height: s.latestHeight,
                blockTimeMs: s.latestBlockTimeMs,
                catchingUp: s.catchingUp,
            };
        }
        const rest = serviceAddress(ctx, 'rest');
        if (!rest)
            throw new Error(
                `Server ${ctx.server?.name ?? ''} has no enabled rpc (or rest) service; add one on the server page`
            );
        const client = createRestClient(ctx.http, rest, ctx.signal);
        const [block, syncing] = await Promise.all([client.latestBlock(), client.syncing()]);
        return {
            source: 'rest',
            network: block.chainId,
            height: block.height,
            blockTimeMs: block.timeMs,
            catchingUp: syncing,
        };
    },

    evaluate(memory, reading, settings, nowMs) {
        const tolerance = Math.max(1, numberSetting('blockCheck', settings, 'miss_tolerance'));
        const periodMs = numberSetting('blockCheck', settings, 'miss_tolerance_period_seconds') * 1000;
        const m: BlockMemory = { ...INITIAL, ...memory };
        // The reset needs a poll that shows progress: a clock step or an interval longer than the period must
        // not wipe the misses of a node that is still stuck.
        const quietEnough = m.misses > 0 && m.lastMissAtMs !== null && nowMs - m.lastMissAtMs >= periodMs;
        const miss = (reason: string): BlockMemory => ({
            ...m,
            misses: m.misses + 1,
            lastMissAtMs: nowMs,
            lastMissReason: reason,
        });

        if (!reading.ok) {
            const next = miss(reading.error);
            return { memory: next, verdict: verdictFor(next, tolerance) };
        }
        const r = reading.value;
        if (r.catchingUp) {
            const next = r.height > (m.height ?? -1) ? advance(m, r, nowMs) : m;
            return {
                memory: next,
                verdict: { level: 'error', message: `Node is catching up (syncing, at height ${r.height})` },
            };
        }
        // A lower height means the node was replaced or rolled back: start over from it, not a miss.
        const base =
            m.height !== null && r.height < m.height
                ? { ...m, height: null, blockTimeMs: null, advancedAtMs: null }
                : m;
        const reason = missReason(base, r, nowMs);
        const advanced = base.height === null || r.height > base.height;
        let next = advanced ? advance(base, r, nowMs) : base;
        if (reason) next = { ...next, misses: m.misses + 1, lastMissAtMs: nowMs, lastMissReason: reason };
        else if (quietEnough) next = { ...next, misses: 0, lastMissReason: null };
        return { memory: next, verdict: verdictFor(next, tolerance) };
    },
};
