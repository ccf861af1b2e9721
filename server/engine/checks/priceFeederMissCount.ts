import { createRestClient } from '../../clients/cosmos-rest';
import type { Check } from '../check';
import type { Verdict } from '../verdict';
import {
    finiteOrNull,
    alertSleepFor,
    type HoldState,
    judgedHold,
    numberSetting,
    readFailureVerdict,
    requireService,
    requireValoper,
    sleepIntervalFor,
    stringSetting,
} from './common';
import { fillValoper, ORACLE_MISS_PATHS, oracleMissPathTemplate } from './oracle-paths';

/**
 * priceFeederMissCount: the oracle module's `miss_counter` for our valoper. The counter counts missed vote
 * periods in the current slash window and drops to 0 when a window ends, so only rises are misses and a fall
 * moves the baseline instead of producing a negative delta.
 *
 *   rise in the period ≥ miss_tolerance → Error
 *   0 < rise < miss_tolerance           → Warning
 *   a poll without a rise, miss_tolerance_period_seconds after the last rise → rise resets to 0
 */

export interface OracleMeasurement {
    counter: number;
}

export interface OracleMemory extends HoldState {
    lastCounter: number | null;
    rise: number;
    lastRiseAtMs: number | null;
}

const INITIAL: OracleMemory = { readFailures: 0, judged: null, lastCounter: null, rise: 0, lastRiseAtMs: null };

export const priceFeederMissCountCheck: Check<OracleMeasurement, OracleMemory> = {
    intervalSeconds: sleepIntervalFor('priceFeederMissCount'),
    alertSleepMinutes: alertSleepFor('priceFeederMissCount'),
    readingValue: (reading, memory) => (reading.ok ? finiteOrNull(memory?.rise) : null),

    /** A chain without a known path may need it filled in later: said at save time, not by the first check. */
    saveWarnings(settings, chain) {
        if (oracleMissPathTemplate(chain, stringSetting(settings, 'oracle_path'))) return [];
        return [
            `No oracle miss-counter path is known for chain ${chain} (known: ${Object.keys(ORACLE_MISS_PATHS).join(', ')}): set oracle_path on the monitor, or it will stay in Error`,
        ];
    },

    async read(ctx) {
        const template = oracleMissPathTemplate(ctx.chain.name, stringSetting(ctx.monitor.settings, 'oracle_path'));
        if (!template) {
            throw new Error(
                `No oracle miss-counter path is known for chain ${ctx.chain.name} (known: ${Object.keys(ORACLE_MISS_PATHS).join(', ')}); set oracle_path on the monitor`
            );
        }
        const valoper = requireValoper(ctx);
        const rest = createRestClient(ctx.http, requireService(ctx, 'rest'), ctx.signal);
        return { counter: await rest.oracleMissCounter(fillValoper(template, valoper)) };
    },

    evaluate(memory, reading, settings, nowMs) {
        let m: OracleMemory = { ...INITIAL, ...memory };
        if (!reading.ok) {
            const { hold, verdict } = readFailureVerdict(m, reading.error);
            return { memory: { ...m, ...hold }, verdict };
        }
        const tolerance = Math.max(1, numberSetting('priceFeederMissCount', settings, 'miss_tolerance'));
        const periodMs = numberSetting('priceFeederMissCount', settings, 'miss_tolerance_period_seconds') * 1000;
        const counter = reading.value.counter;
        if (m.lastCounter !== null && counter > m.lastCounter) {
            m = { ...m, rise: m.rise + counter - m.lastCounter, lastRiseAtMs: nowMs };
        } else if (m.rise > 0 && m.lastRiseAtMs !== null && nowMs - m.lastRiseAtMs >= periodMs) {
            // Reset only on a poll without a rise, so a clock step or a long interval cannot hide misses.
            m = { ...m, rise: 0 };
        }
        m = { ...m, lastCounter: counter };
        const message = `Oracle miss counter rose by ${m.rise} in the period (tolerance ${tolerance}); counter now ${counter}`;
        const verdict: Verdict =
            m.rise >= tolerance
                ? { level: 'error', message }
                : m.rise > 0
                  ? { level: 'warning', message }
                  : { level: 'ok', message: null };
        return { memory: { ...m, ...judgedHold(verdict) }, verdict };
    },
};
