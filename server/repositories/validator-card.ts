import { and, eq, inArray } from 'drizzle-orm';
import {
    BLOCK_STATES,
    VALIDATOR_CARD_TYPES,
    type ValidatorCard,
    type ValidatorFigures,
} from '../../common/validator-card';
import type { Db } from '../db/client';
import { monitors, monitorStates } from '../db/schema';
import type { GovernanceMemory } from '../engine/checks/governanceVote';
import type { SignMissMemory } from '../engine/checks/signMissCheck';
import type { SlashingWindowMemory } from '../engine/checks/slashingWindow';
import type { UpgradeMemory } from '../engine/checks/upgradeWatch';
import type { ActiveSetMemory } from '../engine/checks/validatorOutOfActiveSet';
import type { PersistedState } from '../engine/results';

const iso = (ms: number | null | undefined) => (typeof ms === 'number' ? new Date(ms).toISOString() : null);

/** Decimal string → percent with two decimals (`"0.050000000000000000"` → 5). */
const percentOf = (dec: string | null) => {
    const n = dec === null ? Number.NaN : Number(dec);
    return Number.isFinite(n) ? Math.round(n * 10_000) / 100 : null;
};

/** tokens / total as a percent, computed on big integers (18-decimal denoms exceed 2^53). */
function share(tokens: string, total: string): number | null {
    try {
        const t = BigInt(total);
        return t > 0n ? Number((BigInt(tokens) * 1_000_000n) / t) / 10_000 : null;
    } catch {
        return null;
    }
}

const blank = (valoper: string): ValidatorFigures => ({
    valoper,
    moniker: null,
    status: null,
    jailed: null,
    rank: null,
    max_validators: null,
    tokens: null,
    denom: null,
    voting_power_percent: null,
    commission_percent: null,
    jail_budget: null,
    proposals: null,
    signing: null,
    read_at: null,
});

const later = (a: string | null, b: string | null) => (a && b ? (a > b ? a : b) : (a ?? b));

/**
 * The Validator card of a configuration (whose access the caller checked), from the engine's persisted memory of
 * its validator-duty monitors: one entry per valoper, and the upgrade plan (empty when it has none of them).
 */
export async function validatorCard(
    db: Db,
    configurationId: number,
    /** The engine's latest state of a monitor, newer than what monitor_states holds (saved about once a minute). */
    live?: (monitorId: number) => PersistedState | undefined
): Promise<ValidatorCard> {
    const rows = await db
        .select({
            id: monitors.id,
            type: monitors.type,
            settings: monitors.configurationObject,
            state: monitorStates.state,
        })
        .from(monitors)
        .leftJoin(monitorStates, eq(monitorStates.monitorId, monitors.id))
        .where(and(eq(monitors.configurationId, configurationId), inArray(monitors.type, [...VALIDATOR_CARD_TYPES])))
        .orderBy(monitors.id);
    const byValoper = new Map<string, ValidatorFigures>();
    const entry = (valoper: string) => {
        const known = byValoper.get(valoper) ?? blank(valoper);
        byValoper.set(valoper, known);
        return known;
    };
    let upgrade: ValidatorCard['upgrade'] = null;
    for (const row of rows) {
        const state = live?.(row.id) ?? (row.state as PersistedState | null);
        const memory = state?.memory;
        if (row.type === 'upgradeWatch') {
            const last = (memory as UpgradeMemory | undefined)?.last;
            if (last && !upgrade) {
                upgrade = {
                    plan: last.plan ? { name: last.plan.name, height: last.plan.height, eta: iso(last.etaMs) } : null,
                    app_version: last.appVersion,
                    latest_height: last.latestHeight,
                    read_at: new Date(last.readAt).toISOString(),
                };
            }
            continue;
        }
        let valoper: string | null = null;
        try {
            const s = JSON.parse(row.settings ?? '{}') as { valoper_address?: unknown };
            valoper = typeof s.valoper_address === 'string' ? s.valoper_address.trim() : null;
        } catch {
            valoper = null;
        }
        if (!valoper) continue;
        const v = entry(valoper);
        if (row.type === 'signMissCheck') {
            const grid = (memory as SignMissMemory | undefined)?.grid;
            if (!grid || v.signing) continue;
            v.signing = {
                blocks: grid.map(([height, s]) => ({ height, state: BLOCK_STATES[s] })),
                source: state?.source?.name ?? null,
            };
        } else if (row.type === 'validatorOutOfActiveSet') {
            const last = (memory as ActiveSetMemory | undefined)?.last;
            if (!last) continue;
            v.moniker = last.moniker || v.moniker;
            v.status = last.status;
            v.jailed = last.jailed;
            if (last.rank) {
                v.rank = last.rank.rank;
                v.max_validators = last.rank.maxValidators;
                v.tokens = last.rank.tokens;
                v.denom = last.rank.denom || null;
                v.voting_power_percent = share(last.rank.tokens, last.rank.totalBonded);
                v.commission_percent = percentOf(last.rank.commission);
            }
            v.read_at = later(v.read_at, iso(last.readAt));
        } else if (row.type === 'slashingWindow') {
            const last = (memory as SlashingWindowMemory | undefined)?.last;
            if (!last) continue;
            v.moniker = v.moniker ?? (last.moniker || null);
            v.jail_budget = {
                missed: last.missed,
                budget: last.budget,
                left: last.left,
                used_percent: Math.round(last.usedPercent * 10) / 10,
                ms_to_jail: last.msToJail === null ? null : Math.round(last.msToJail),
                jailed: last.jailed,
                tombstoned: last.tombstoned,
            };
            v.read_at = later(v.read_at, iso(last.readAt));
        } else if (row.type === 'governanceVote') {
            const last = (memory as GovernanceMemory | undefined)?.last;
            if (!last) continue;
            v.proposals = last.proposals.map((p) => ({
                id: p.id,
                title: p.title,
                voting_end: iso(p.votingEndMs),
                voted: p.options.length > 0,
                options: p.options,
            }));
            v.read_at = later(v.read_at, iso(last.readAt));
        }
    }
    return { configuration_id: configurationId, validators: [...byValoper.values()], upgrade };
}
