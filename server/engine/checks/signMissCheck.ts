import { type CometClient, createCometClient } from '../../clients/cometbft';
import { createRestClient, type RestClient, type SlashingParams } from '../../clients/cosmos-rest';
import { accountPrefix, consensusAddress } from '../addresses';
import type { Check, CheckContext } from '../check';
import type { Verdict } from '../verdict';
import {
    finiteOrNull,
    alertSleepFor,
    errorText,
    formatTime,
    type HoldState,
    judgedHold,
    numberSetting,
    readFailureVerdict,
    requireService,
    requireValoper,
    serviceAddress,
    sleepIntervalFor,
} from './common';
import { CommitCache } from './commit-cache';
import { BlockCursor } from './cursor';

/**
 * signMissCheck: did our validator sign the recent blocks?
 *
 * Live mode (the server has an rpc service): each poll reads the canonical commits of the blocks since the last
 * poll (at most MAX_BLOCKS_PER_POLL, newest first kept) and looks for our address in the signatures. Only an
 * absent vote (flag 1) or no entry at all is a miss; a nil vote (flag 3) counts as signed, as in x/slashing.
 * Each result is recorded under the commit's own height, and a height is never counted twice.
 * Counter mode (rest only): rises of the on-chain `missed_blocks_counter` are the misses; a fall (window
 * roll-off, jail reset) re-baselines.
 *
 *   jailed or tombstoned                 → Error with the reason
 *   not bonded                           → Warning (its signatures are not expected)
 *   misses in the period ≥ miss_tolerance → Error
 *   0 < misses < miss_tolerance          → Warning
 *   on-chain counter ≥ 90 % of the jail budget → Error
 *   a poll without new misses, miss_tolerance_period_seconds after the last one → misses reset
 */

export const MAX_BLOCKS_PER_POLL = 50;
const BUDGET_ERROR_SHARE = 0.9;

export interface SignMissMeasurement {
    moniker: string;
    valoper: string;
    hex: string;
    valcons: string;
    status: string;
    jailed: boolean;
    signing: { missed: number; jailedUntilMs: number | null; tombstoned: boolean } | null;
    window: SlashingParams | null;
    /** Null in counter mode (no rpc service) and while the validator is not expected to sign. */
    blocks: { height: number; signed: boolean; proposed?: boolean }[] | null;
    latestHeight: number | null;
    /** New blocks beyond the per-poll cap that were not read. */
    skipped: number;
}

export interface SignMissMemory extends HoldState {
    lastHeight: number | null;
    misses: number;
    /** Blocks seen since the first miss of the current episode. */
    seen: number;
    lastMissAtMs: number | null;
    lastCounter: number | null;
    /** The last GRID_BLOCKS blocks read, oldest first, for the Validator card's signing grid. */
    grid?: GridCell[];
}

/** One block of the signing grid: [height, 0 signed | 1 missed | 2 proposed and signed] (compact: persisted per check). */
export type GridCell = [number, 0 | 1 | 2];
export const GRID_BLOCKS = 100;

const INITIAL: SignMissMemory = {
    readFailures: 0,
    judged: null,
    lastHeight: null,
    misses: 0,
    seen: 0,
    lastMissAtMs: null,
    lastCounter: null,
};

const cursor = new BlockCursor();
const commits = new CommitCache();
const paramsCache = new Map<string, { at: number; params: SlashingParams }>();
const PARAMS_TTL_MS = 10 * 60_000;

async function slashingParams(rest: RestClient, restUrl: string): Promise<SlashingParams | null> {
    const cached = paramsCache.get(restUrl);
    if (cached && Date.now() - cached.at < PARAMS_TTL_MS) return cached.params;
    try {
        const params = await rest.slashingParams();
        if (paramsCache.size > 1000) paramsCache.clear();
        paramsCache.set(restUrl, { at: Date.now(), params });
        return params;
    } catch {
        return cached?.params ?? null; // params only enrich the message
    }
}

/** Signed-or-not for each new block since the cursor, reading canonical commits (no transactions). */
async function readBlocks(comet: CometClient, rpcUrl: string, key: string, hex: string) {
    const status = await comet.status();
    const latest = status.latestHeight;
    const node = `${rpcUrl}|${status.network}`;
    commits.observe(node, latest);
    // The newest canonical commit is the one for latest − 1 (block `latest` carries it).
    const top = latest - 1;
    const last = cursor.get(key);
    let from = last === undefined || last >= top ? top : last + 1;
    const skipped = Math.max(0, top - from + 1 - MAX_BLOCKS_PER_POLL);
    from += skipped;
    const heights: number[] = [];
    for (let h = Math.max(1, from); h <= top; h++) heights.push(h);
    const blocks: { height: number; signed: boolean; proposed: boolean }[] = [];
    for (let i = 0; i < heights.length; i += 5) {
        const read = await Promise.all(
            heights.slice(i, i + 5).map(async (h) => {
                const cached = commits.get(node, h);
                if (cached) return cached;
                const c = await comet.commit(h);
                commits.set(node, c);
                return c;
            })
        );
        for (const c of read) {
            const own = c.signatures.find((s) => s.validatorAddress === hex);
            blocks.push({
                height: c.height,
                signed: own !== undefined && own.flag !== 'absent',
                proposed: c.proposer === hex,
            });
        }
    }
    cursor.set(key, top);
    return { blocks, latestHeight: latest, skipped };
}

async function read(ctx: CheckContext): Promise<SignMissMeasurement> {
    const valoper = requireValoper(ctx);
    const restUrl = requireService(ctx, 'rest');
    const rpcUrl = serviceAddress(ctx, 'rpc');
    const rest = createRestClient(ctx.http, restUrl, ctx.signal);
    const v = await rest.validator(valoper);
    let addr: { hex: string; valcons: string };
    try {
        addr = consensusAddress(v.consensusPubkey, accountPrefix(valoper, ctx.chain.bech32Prefix));
    } catch (err) {
        throw new Error(`Validator ${valoper}: ${errorText(err)}`);
    }
    const [window, info] = await Promise.all([slashingParams(rest, restUrl), rest.signingInfo(addr.valcons)]);
    const signing = info
        ? { missed: info.missedBlocksCounter, jailedUntilMs: info.jailedUntilMs, tombstoned: info.tombstoned }
        : null;
    const expectedToSign = v.status === 'BOND_STATUS_BONDED' && !v.jailed;
    const live =
        rpcUrl && expectedToSign
            ? await readBlocks(
                  createCometClient(ctx.http, rpcUrl, ctx.signal),
                  rpcUrl,
                  // Heights are the chain's, whichever source serves them: a switch of source goes on from the last.
                  String(ctx.monitor.id),
                  addr.hex
              )
            : null;
    return {
        moniker: v.moniker,
        valoper,
        ...addr,
        status: v.status,
        jailed: v.jailed,
        signing,
        window,
        blocks: live?.blocks ?? null,
        latestHeight: live?.latestHeight ?? null,
        skipped: live?.skipped ?? 0,
    };
}

const STATUS_WORDS: Record<string, string> = {
    BOND_STATUS_UNBONDING: 'unbonding',
    BOND_STATUS_UNBONDED: 'unbonded',
    BOND_STATUS_UNSPECIFIED: 'in an unspecified bond status',
};

/** Jailed / tombstoned / not bonded: a verdict that overrides the miss counts, or null. */
function standingVerdict(r: SignMissMeasurement, nowMs: number): Verdict | null {
    const who = `Validator ${r.moniker || r.valoper}`;
    if (r.signing?.tombstoned)
        return {
            level: 'error',
            message: `${who} is tombstoned (slashed for double signing; it can never sign again)`,
        };
    if (r.jailed) {
        const until = r.signing?.jailedUntilMs ?? null;
        const when =
            until !== null && until > nowMs
                ? `until ${formatTime(until)}`
                : until !== null
                  ? `(jail period ended ${formatTime(until)}; it needs an unjail transaction)`
                  : '';
        return { level: 'error', message: `${who} is jailed ${when}`.trim() };
    }
    if (r.status !== 'BOND_STATUS_BONDED') {
        return {
            level: 'warning',
            message: `${who} is ${STATUS_WORDS[r.status] ?? r.status}, not in the active set; its signatures are not expected`,
        };
    }
    return null;
}

function windowText(r: SignMissMeasurement): string {
    if (!r.signing) return '';
    const w = r.window;
    return w
        ? `; ${r.signing.missed} missed in the slashing window of ${w.signedBlocksWindow} (jail above ${w.maxMissed})`
        : `; ${r.signing.missed} missed in the slashing window`;
}

function countVerdict(m: SignMissMemory, r: SignMissMeasurement, tolerance: number, counterMode: boolean): Verdict {
    const skipped = r.skipped > 0 ? `; ${r.skipped} older blocks were not read this poll` : '';
    const counts = counterMode
        ? `On-chain missed-blocks counter rose by ${m.misses} in the period (tolerance ${tolerance})`
        : `Missed ${m.misses} of the last ${m.seen} blocks (tolerance ${tolerance})`;
    const message = `${counts}${windowText(r)}${skipped}`;
    if (m.misses >= tolerance) return { level: 'error', message };
    const budget = r.window?.maxMissed ?? 0;
    if (r.signing && budget > 0 && r.signing.missed >= BUDGET_ERROR_SHARE * budget) {
        return {
            level: 'error',
            message: `Close to jail: ${r.signing.missed} of ${budget} allowed misses used in the slashing window`,
        };
    }
    if (m.misses > 0) return { level: 'warning', message };
    return { level: 'ok', message: null };
}

/** Adds the new blocks (never one twice) or, in counter mode, the counter's rise. */
function count(m: SignMissMemory, r: SignMissMeasurement, nowMs: number): SignMissMemory {
    const next = { ...m };
    const counter = r.signing?.missed ?? null;
    if (r.blocks) {
        // The chain restarted below what we counted: count afresh.
        if (next.lastHeight !== null && r.latestHeight !== null && r.latestHeight < next.lastHeight) {
            next.lastHeight = null;
            next.grid = [];
        }
        const grid = [...(next.grid ?? [])];
        for (const b of [...r.blocks].sort((a, c) => a.height - c.height)) {
            if (next.lastHeight !== null && b.height <= next.lastHeight) continue;
            next.lastHeight = b.height;
            // A missing signature is the duty that counts toward jail, even in a block it proposed.
            grid.push([b.height, !b.signed ? 1 : b.proposed ? 2 : 0]);
            if (b.signed && next.misses === 0) continue;
            next.seen += 1;
            if (!b.signed) {
                next.misses += 1;
                next.lastMissAtMs = nowMs;
            }
        }
        next.grid = grid.slice(-GRID_BLOCKS);
    } else if (counter !== null && next.lastCounter !== null && counter > next.lastCounter) {
        next.misses += counter - next.lastCounter;
        next.lastMissAtMs = nowMs;
    }
    // A fall of the counter (roll-off, jail reset) just moves the baseline.
    next.lastCounter = counter;
    return next;
}

export const signMissCheckCheck: Check<SignMissMeasurement, SignMissMemory> = {
    intervalSeconds: sleepIntervalFor('signMissCheck'),
    alertSleepMinutes: alertSleepFor('signMissCheck'),
    signingGroup: true,
    readingValue: (reading, memory) => (reading.ok ? finiteOrNull(memory?.misses) : null),

    read,

    evaluate(memory, reading, settings, nowMs) {
        let m: SignMissMemory = { ...INITIAL, ...memory };
        if (!reading.ok) {
            const { hold, verdict } = readFailureVerdict(m, reading.error);
            return { memory: { ...m, ...hold }, verdict };
        }
        const tolerance = Math.max(1, numberSetting('signMissCheck', settings, 'miss_tolerance'));
        const periodMs = numberSetting('signMissCheck', settings, 'miss_tolerance_period_seconds') * 1000;
        const quietEnough = m.misses > 0 && m.lastMissAtMs !== null && nowMs - m.lastMissAtMs >= periodMs;
        const r = reading.value;
        const before = m.misses;
        m = count(m, r, nowMs);
        // Reset only on a poll without new misses, so a clock step or a long interval cannot hide a streak.
        if (quietEnough && m.misses === before) m = { ...m, misses: 0, seen: 0 };
        const verdict = standingVerdict(r, nowMs) ?? countVerdict(m, r, tolerance, r.blocks === null);
        return { memory: { ...m, ...judgedHold(verdict) }, verdict };
    },
};
