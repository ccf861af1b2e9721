import { createRestClient } from '../../clients/cosmos-rest';
import { accountPrefix, consensusAddress } from '../addresses';
import type { Check, CheckContext } from '../check';
import type { Verdict } from '../verdict';
import {
    finiteOrNull,
    alertSleepFor,
    errorText,
    formatDuration,
    formatTime,
    type HoldState,
    judgedHold,
    numberSetting,
    readFailureVerdict,
    requireService,
    requireValoper,
    sleepIntervalFor,
} from './common';

/**
 * slashingWindow: how much of the jail budget (x/slashing: `signed_blocks_window × (1 − min_signed_per_window)`
 * missed blocks in the sliding window) is used, and at the current miss rate when the validator would be jailed.
 *
 *   tombstoned                       → Error
 *   jailed                           → Error (the counter was reset by the jail: not a recovery)
 *   used ≥ error_percent of budget   → Error
 *   used ≥ warning_percent           → Warning
 *   else                             → ok
 *
 * The miss rate comes from the counter readings of the last RATE_WINDOW_MS, kept in the persisted memory so a
 * restart does not lose it; a counter that is flat or falling (roll-off, jail reset) is "not missing now".
 */

export const RATE_WINDOW_MS = 10 * 60_000;

export interface SlashingWindowMeasurement {
    valoper: string;
    moniker: string;
    missed: number;
    signedBlocksWindow: number;
    /** Misses allowed in the window; the next one above it jails. */
    budget: number;
    jailed: boolean;
    jailedUntilMs: number | null;
    tombstoned: boolean;
}

/** What the Validator card shows: the figures of the last successful reading. */
export interface JailBudgetSummary {
    moniker: string;
    missed: number;
    budget: number;
    left: number;
    usedPercent: number;
    /** Milliseconds to jail at the current miss rate; null when not missing now. */
    msToJail: number | null;
    jailed: boolean;
    tombstoned: boolean;
    readAt: number;
}

export interface SlashingWindowMemory extends HoldState {
    samples: { at: number; missed: number }[];
    last?: JailBudgetSummary;
}

async function read(ctx: CheckContext): Promise<SlashingWindowMeasurement> {
    const valoper = requireValoper(ctx);
    const rest = createRestClient(ctx.http, requireService(ctx, 'rest'), ctx.signal);
    const v = await rest.validator(valoper);
    let valcons: string;
    try {
        valcons = consensusAddress(v.consensusPubkey, accountPrefix(valoper, ctx.chain.bech32Prefix)).valcons;
    } catch (err) {
        throw new Error(`Validator ${valoper}: ${errorText(err)}`);
    }
    const [params, info] = await Promise.all([rest.slashingParams(), rest.signingInfo(valcons)]);
    if (!info)
        throw new Error(
            `The chain has no signing info for validator ${v.moniker || valoper} (${valcons}): it has never been bonded`
        );
    return {
        valoper,
        moniker: v.moniker,
        missed: info.missedBlocksCounter,
        signedBlocksWindow: params.signedBlocksWindow,
        budget: params.maxMissed,
        jailed: v.jailed,
        jailedUntilMs: info.jailedUntilMs,
        tombstoned: info.tombstoned,
    };
}

/** Blocks missed per millisecond over the kept readings, or 0 when the counter did not rise. */
export function missRate(samples: { at: number; missed: number }[]): number {
    const first = samples[0];
    const last = samples[samples.length - 1];
    if (!first || !last || last.at <= first.at || last.missed <= first.missed) return 0;
    return (last.missed - first.missed) / (last.at - first.at);
}

function summarise(r: SlashingWindowMeasurement, rate: number, nowMs: number): JailBudgetSummary {
    const left = Math.max(0, r.budget - r.missed);
    return {
        moniker: r.moniker,
        missed: r.missed,
        budget: r.budget,
        left,
        usedPercent: r.budget > 0 ? (100 * r.missed) / r.budget : 100,
        // The (budget + 1)th miss jails.
        msToJail: rate > 0 ? (left + 1) / rate : null,
        jailed: r.jailed,
        tombstoned: r.tombstoned,
        readAt: nowMs,
    };
}

const pct = (n: number) => `${n.toFixed(1)} %`;

export function slashingWindowVerdict(
    r: SlashingWindowMeasurement,
    s: JailBudgetSummary,
    settings: Record<string, unknown>,
    nowMs: number
): Verdict {
    const who = `Validator ${r.moniker || r.valoper}`;
    if (r.tombstoned)
        return { level: 'error', message: `${who} is tombstoned (slashed for double signing; permanently jailed)` };
    if (r.jailed) {
        const until =
            r.jailedUntilMs !== null && r.jailedUntilMs > nowMs ? ` until ${formatTime(r.jailedUntilMs)}` : '';
        return { level: 'error', message: `${who} is jailed${until}` };
    }
    const warning = numberSetting('slashingWindow', settings, 'warning_percent');
    const error = numberSetting('slashingWindow', settings, 'error_percent');
    const pace =
        s.msToJail === null
            ? 'not missing now'
            : `jailed in about ${formatDuration(s.msToJail)} at the current miss rate`;
    const message = `${who} missed ${s.missed} of ${s.budget} blocks allowed in the slashing window of ${r.signedBlocksWindow} (${pct(s.usedPercent)} of the jail budget); ${s.left} left; ${pace}`;
    if (s.usedPercent >= error) return { level: 'error', message };
    if (s.usedPercent >= warning) return { level: 'warning', message };
    return { level: 'ok', message: null };
}

export const slashingWindowCheck: Check<SlashingWindowMeasurement, SlashingWindowMemory> = {
    intervalSeconds: sleepIntervalFor('slashingWindow'),
    alertSleepMinutes: alertSleepFor('slashingWindow'),
    signingGroup: true,
    validatorGauges: (memory) => (memory?.last ? { missed: memory.last.missed, budgetLeft: memory.last.left } : {}),
    readingValue: (reading) => (reading.ok ? finiteOrNull(reading.value.missed) : null),

    read,

    evaluate(memory, reading, settings, nowMs) {
        const m: SlashingWindowMemory = { readFailures: 0, judged: null, samples: [], ...memory };
        if (!reading.ok) {
            const { hold, verdict } = readFailureVerdict(m, reading.error);
            return { memory: { ...m, ...hold }, verdict };
        }
        const r = reading.value;
        // A fall of the counter (roll-off, jail reset) starts the rate afresh from this reading.
        const kept = m.samples.filter((x) => nowMs - x.at <= RATE_WINDOW_MS && x.at < nowMs);
        const samples = kept.some((x) => x.missed > r.missed) ? [] : kept;
        samples.push({ at: nowMs, missed: r.missed });
        const summary = summarise(r, missRate(samples), nowMs);
        const verdict = slashingWindowVerdict(r, summary, settings, nowMs);
        return { memory: { ...judgedHold(verdict), samples, last: summary }, verdict };
    },
};
