import { createRestClient } from '../../clients/cosmos-rest';
import { accountPrefix, consensusAddress } from '../addresses';
import type { Check, Verdict } from '../check';
import {
    alertSleepFor,
    errorText,
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
}

export type ActiveSetMemory = HoldState;

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

    async read(ctx) {
        const valoper = requireValoper(ctx);
        const rest = createRestClient(ctx.http, requireService(ctx, 'rest'), ctx.signal);
        try {
            const v = await rest.validator(valoper);
            const out = {
                valoper,
                moniker: v.moniker,
                status: v.status,
                jailed: v.jailed,
                tombstoned: null,
                jailedUntilMs: null,
            };
            if (v.status === 'BOND_STATUS_BONDED' && !v.jailed) return out;
            // Out of the set: the signing info tells tombstoned from jailed and until when.
            try {
                const valcons = consensusAddress(
                    v.consensusPubkey,
                    accountPrefix(valoper, ctx.chain.bech32Prefix)
                ).valcons;
                const info = await rest.signingInfo(valcons);
                return { ...out, tombstoned: info?.tombstoned ?? null, jailedUntilMs: info?.jailedUntilMs ?? null };
            } catch {
                return out; // the reason is then less precise, but the status alone decides
            }
        } catch (err) {
            throw new Error(errorText(err));
        }
    },

    evaluate(memory, reading, _settings, nowMs) {
        if (!reading.ok) {
            const { hold, verdict } = readFailureVerdict(memory, reading.error);
            return { memory: hold, verdict };
        }
        const verdict = activeSetVerdict(reading.value, nowMs);
        return { memory: judgedHold(verdict), verdict };
    },
};
