import { createDutyClient } from '../../clients/cosmos-duty';
import { createRestClient } from '../../clients/cosmos-rest';
import { accountPrefix, consensusAddress } from '../addresses';
import type { Check, CheckContext } from '../check';
import type { Verdict } from '../verdict';
import {
    finiteOrNull,
    alertSleepFor,
    formatTime,
    type HoldState,
    judgedHold,
    readFailureVerdict,
    requireService,
    requireValoper,
    sleepIntervalFor,
} from './common';

/**
 * validatorOutOfActiveSet: REST staking validator. Error whenever it is not BOND_STATUS_BONDED or is jailed,
 * including on the very first observation (a validator already out at start-up must alert too), with the
 * reason: tombstoned (from the signing info), jailed until …, unbonding, unbonded. Ok when bonded and not jailed.
 */

export interface ActiveSetMeasurement {
    valoper: string;
    moniker: string;
    status: string;
    jailed: boolean;
    /** Read from the signing info only when the validator is out; null when unknown. */
    tombstoned: boolean | null;
    jailedUntilMs: number | null;
    /** Rank by tokens among the bonded validators; null when out of the set or when it could not be read. */
    rank?: RankReading | null;
}

export interface RankReading {
    rank: number;
    maxValidators: number;
    bondedCount: number;
    denom: string;
    /** Integers in the base denom, as decimal strings (they exceed 2^53 on 18-decimal chains). */
    tokens: string;
    totalBonded: string;
    /** Tokens of the validator at rank max_validators, null while a seat is free. */
    lastActiveTokens: string | null;
    commission: string | null;
}

/** What the Validator card shows from the last successful reading. */
export interface ActiveSetSummary {
    moniker: string;
    status: string;
    jailed: boolean;
    rank: RankReading | null;
    readAt: number;
}

export interface ActiveSetMemory extends HoldState {
    last?: ActiveSetSummary;
}

export const DEFAULT_RANK_WARNING_MARGIN = 5;

/** Bonded validators sorted by tokens (big integers, descending): our rank and the last active seat's stake. */
async function readRank(ctx: CheckContext, restUrl: string, valoper: string): Promise<RankReading | null> {
    const duty = createDutyClient(ctx.http, restUrl, ctx.signal);
    const [params, bonded] = await Promise.all([duty.stakingParams(), duty.bonded()]);
    const sorted = [...bonded].sort((a, b) => (b.tokens > a.tokens ? 1 : b.tokens < a.tokens ? -1 : 0));
    const index = sorted.findIndex((v) => v.valoper === valoper);
    const own = sorted[index];
    if (!own) return null;
    const last = sorted.length >= params.maxValidators ? sorted[params.maxValidators - 1] : undefined;
    return {
        rank: index + 1,
        maxValidators: params.maxValidators,
        bondedCount: sorted.length,
        denom: params.bondDenom,
        tokens: own.tokens.toString(),
        totalBonded: sorted.reduce((sum, v) => sum + v.tokens, 0n).toString(),
        lastActiveTokens: last ? last.tokens.toString() : null,
        commission: own.commission,
    };
}

/** Warning when the rank is within `margin` seats of max_validators while every seat is taken. */
export function rankVerdict(r: ActiveSetMeasurement, margin: number): Verdict {
    const k = r.rank;
    if (!k || margin <= 0 || k.lastActiveTokens === null || k.rank < k.maxValidators - margin)
        return { level: 'ok', message: null };
    const above = BigInt(k.tokens) - BigInt(k.lastActiveTokens);
    const seats = k.maxValidators - k.rank;
    return {
        level: 'warning',
        message:
            `Validator ${r.moniker || r.valoper} ranks ${k.rank}/${k.maxValidators} by stake, ${seats} seat${seats === 1 ? '' : 's'} from the edge of the active set; ${above} ${k.denom} above the last active validator (rank ${k.maxValidators})`.replace(
                / {2,}/g,
                ' '
            ),
    };
}

const OUT_WORDS: Record<string, string> = {
    BOND_STATUS_UNBONDING: 'is unbonding (out of the active set)',
    BOND_STATUS_UNBONDED: 'is unbonded (out of the active set)',
    BOND_STATUS_UNSPECIFIED: 'has an unspecified bond status',
};

export function activeSetVerdict(r: ActiveSetMeasurement, nowMs: number): Verdict {
    if (r.status === 'BOND_STATUS_BONDED' && !r.jailed) return { level: 'ok', message: null };
    const who = `Validator ${r.moniker || r.valoper}`;
    if (r.tombstoned)
        return {
            level: 'error',
            message: `${who} is tombstoned (slashed for double signing; permanently out of the active set)`,
        };
    const parts: string[] = [];
    if (r.jailed) {
        const until = r.jailedUntilMs;
        parts.push(
            until !== null && until > nowMs
                ? `is jailed until ${formatTime(until)}`
                : until !== null
                  ? `is jailed (jail period ended ${formatTime(until)}; it needs an unjail transaction)`
                  : 'is jailed'
        );
    }
    if (r.status !== 'BOND_STATUS_BONDED')
        parts.push(OUT_WORDS[r.status] ?? `has status ${r.status} (out of the active set)`);
    return { level: 'error', message: `${who} ${parts.join(' and ')}` };
}

export const validatorOutOfActiveSetCheck: Check<ActiveSetMeasurement, ActiveSetMemory> = {
    intervalSeconds: sleepIntervalFor('validatorOutOfActiveSet'),
    alertSleepMinutes: alertSleepFor('validatorOutOfActiveSet'),
    signingGroup: true,
    validatorGauges(memory) {
        const rank = memory?.last?.rank;
        return rank ? { rankMargin: rank.maxValidators - rank.rank } : {};
    },
    readingValue: (reading) => (reading.ok ? finiteOrNull(reading.value.rank?.rank) : null),

    async read(ctx) {
        const valoper = requireValoper(ctx);
        const restUrl = requireService(ctx, 'rest');
        const rest = createRestClient(ctx.http, restUrl, ctx.signal);
        const v = await rest.validator(valoper);
        const out = {
            valoper,
            moniker: v.moniker,
            status: v.status,
            jailed: v.jailed,
            tombstoned: null,
            jailedUntilMs: null,
        };
        if (v.status === 'BOND_STATUS_BONDED' && !v.jailed) {
            // The rank is an early warning on top of the status: a failed read of it must not fail the check.
            const rank = await readRank(ctx, restUrl, valoper).catch(() => null);
            return { ...out, rank };
        }
        // Out of the set: the signing info tells tombstoned from jailed and until when.
        try {
            const valcons = consensusAddress(v.consensusPubkey, accountPrefix(valoper, ctx.chain.bech32Prefix)).valcons;
            const info = await rest.signingInfo(valcons);
            return { ...out, tombstoned: info?.tombstoned ?? null, jailedUntilMs: info?.jailedUntilMs ?? null };
        } catch {
            return out; // the reason is then less precise, but the status alone decides
        }
    },

    evaluate(memory, reading, settings, nowMs) {
        if (!reading.ok) {
            const { hold, verdict } = readFailureVerdict(memory, reading.error);
            return { memory: { ...memory, ...hold }, verdict };
        }
        const r = reading.value;
        const out = activeSetVerdict(r, nowMs);
        const raw = settings.rank_warning_margin;
        const margin = raw === undefined || raw === null || raw === '' ? DEFAULT_RANK_WARNING_MARGIN : Number(raw);
        const verdict = out.level === 'ok' ? rankVerdict(r, Number.isFinite(margin) ? margin : 5) : out;
        const last = { moniker: r.moniker, status: r.status, jailed: r.jailed, rank: r.rank ?? null, readAt: nowMs };
        return { memory: { ...judgedHold(verdict), last }, verdict };
    },
};
