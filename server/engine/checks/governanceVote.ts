import { createDutyClient, type GovVersion } from '../../clients/cosmos-duty';
import { operatorAccount } from '../addresses';
import type { Check, CheckContext } from '../check';
import type { Verdict } from '../verdict';
import {
    alertSleepFor,
    formatDuration,
    type HoldState,
    judgedHold,
    numberSetting,
    readFailureVerdict,
    requireService,
    requireValoper,
    sleepIntervalFor,
} from './common';

/**
 * governanceVote: has the validator voted on every proposal in its voting period? The voter is the validator's
 * own account (the valoper's bytes with the chain's account prefix); gov v1 is read first, v1beta1 where v1 is
 * not served. An unvoted proposal ending within `warning_hours_before_end` is a Warning, within
 * `error_hours_before_end` an Error; a vote cast recovers it.
 */

export interface ProposalDuty {
    id: string;
    title: string;
    votingEndMs: number | null;
    /** Vote options cast, empty when not voted. */
    options: string[];
}

export interface GovernanceMeasurement {
    voter: string;
    version: GovVersion;
    proposals: ProposalDuty[];
}

export interface GovernanceMemory extends HoldState {
    last?: { voter: string; proposals: ProposalDuty[]; readAt: number };
}

const VOTE_READS_AT_ONCE = 5;

async function read(ctx: CheckContext): Promise<GovernanceMeasurement> {
    const valoper = requireValoper(ctx);
    const voter = operatorAccount(valoper, ctx.chain.bech32Prefix);
    const client = createDutyClient(ctx.http, requireService(ctx, 'rest'), ctx.signal);
    const { version, proposals } = await client.openProposals();
    const out: ProposalDuty[] = [];
    for (let i = 0; i < proposals.length; i += VOTE_READS_AT_ONCE) {
        const batch = proposals.slice(i, i + VOTE_READS_AT_ONCE);
        const votes = await Promise.all(batch.map((p) => client.vote(version, p.id, voter)));
        batch.forEach((p, k) => {
            out.push({ ...p, options: votes[k] ?? [] });
        });
    }
    return { voter, version, proposals: out };
}

const timeLeft = (p: ProposalDuty, nowMs: number) =>
    p.votingEndMs === null
        ? 'end time unknown'
        : p.votingEndMs <= nowMs
          ? 'voting period over'
          : `ends in ${formatDuration(p.votingEndMs - nowMs)}`;

export function governanceVerdict(r: GovernanceMeasurement, settings: Record<string, unknown>, nowMs: number): Verdict {
    const warnMs = numberSetting('governanceVote', settings, 'warning_hours_before_end') * 3_600_000;
    const errMs = numberSetting('governanceVote', settings, 'error_hours_before_end') * 3_600_000;
    const due = r.proposals
        .filter((p) => p.options.length === 0)
        .map((p) => {
            const left = p.votingEndMs === null ? Number.POSITIVE_INFINITY : p.votingEndMs - nowMs;
            return { p, left, level: left <= errMs ? 'error' : left <= warnMs ? 'warning' : 'ok' };
        })
        .filter((d) => d.level !== 'ok')
        .sort((a, b) => a.left - b.left);
    if (due.length === 0) return { level: 'ok', message: null };
    const level = due.some((d) => d.level === 'error') ? 'error' : 'warning';
    const list = due.map((d) => `#${d.p.id} "${d.p.title}" (${timeLeft(d.p, nowMs)})`).join('; ');
    return { level, message: `Not voted by ${r.voter}: proposal ${list}` };
}

export const governanceVoteCheck: Check<GovernanceMeasurement, GovernanceMemory> = {
    intervalSeconds: sleepIntervalFor('governanceVote'),
    alertSleepMinutes: alertSleepFor('governanceVote'),

    read,

    evaluate(memory, reading, settings, nowMs) {
        const m: GovernanceMemory = { readFailures: 0, judged: null, ...memory };
        if (!reading.ok) {
            const { hold, verdict } = readFailureVerdict(m, reading.error);
            return { memory: { ...m, ...hold }, verdict };
        }
        const verdict = governanceVerdict(reading.value, settings, nowMs);
        const last = { voter: reading.value.voter, proposals: reading.value.proposals, readAt: nowMs };
        return { memory: { ...judgedHold(verdict), last }, verdict };
    },
};
