import { randomUUID } from 'node:crypto';
import type { Cover } from '../silences/active';
import { hush } from '../silences/hush';
import { NO_FRESH_SOURCE, type SourceUsed, sourceText } from './chain-sources';
import type { Check, EngineShared } from './check';
import type { DutyGroups } from './duty-group';
import type { PersistedState } from './results';
import type { MonitorTarget } from './targets';
import { keepSentWarning, type Transition, transition } from './transitions';
import type { ReadResult, Verdict } from './verdict';

/** A duty monitor that sees no fresh source of its chain warns this long, then is in Error. */
export const BLIND_GRACE_MS = 60_000;

export interface JudgeInput {
    check: Check;
    target: MonitorTarget;
    reading: ReadResult<unknown>;
    /** The chain source a duty check read instead of its own node, if any. */
    source: SourceUsed | null;
    prev: PersistedState;
    nowMs: number;
    shared: EngineShared;
    dutyGroups: DutyGroups;
    /** The silence or maintenance window covering the monitor now, if any. */
    cover: Cover | null;
}

export interface Judgement {
    verdict: Verdict;
    memory: unknown;
    next: Transition;
    /** Since when a duty check has seen no fresh source of its chain; undefined while it sees one. */
    blindSince?: number;
}

/** The check's own word on one reading: its verdict and memory, before the alert state is advanced. */
export interface Evaluation {
    verdict: Verdict;
    memory: unknown;
    /** A message to send once whatever the alert state (upgradeWatch). */
    notice?: string | null;
    /** Since when a duty check has seen no fresh source of its chain; undefined while it sees one. */
    blindSince?: number;
}

/** What the check makes of one reading, given the monitor's memory: the first half of `judge`. */
export function evaluate({
    check,
    target,
    reading,
    source,
    prev,
    nowMs,
}: Pick<JudgeInput, 'check' | 'target' | 'reading' | 'source' | 'prev' | 'nowMs'>): Evaluation {
    let judged: ReturnType<typeof check.evaluate>;
    // No node of the chain is fresh: the duty check cannot see the chain, which is not the validator's health.
    const blind = !reading.ok && reading.error.startsWith(NO_FRESH_SOURCE);
    const blindSince = blind ? (prev.blindSince ?? nowMs) : undefined;
    if (!reading.ok && blind) {
        // A monitor already in Error stays there: losing sight of the chain is no recovery.
        const inError =
            prev.alert.status === 'alerting' || (prev.alert.status === 'flapping' && prev.alert.failing === true);
        const level = inError || nowMs - (blindSince ?? nowMs) >= BLIND_GRACE_MS ? 'error' : 'warning';
        judged = { memory: prev.memory, verdict: { level, message: reading.error } };
    } else {
        try {
            judged = check.evaluate(prev.memory, reading, target.settings, nowMs);
        } catch (err) {
            judged = {
                memory: prev.memory,
                verdict: { level: 'error', message: `The check failed: ${(err as Error).message}` },
            };
        }
    }
    if (source && !source.own && judged.verdict.message)
        judged = {
            ...judged,
            verdict: { ...judged.verdict, message: `${judged.verdict.message}; ${sourceText(source)}` },
        };
    return { ...judged, ...(blindSince !== undefined ? { blindSince } : {}) };
}

/**
 * What one reading means for its monitor: the check's verdict (or `evaluation`, when the readings of several
 * locations were weighed into one, locations.ts), then the alert state's next step as the other monitors' facts
 * (upgrade holds, chain halts, one signing alert per validator) and silences shape it.
 */
export function judge(input: JudgeInput & { evaluation?: Evaluation }): Judgement {
    const { check, target, reading, prev, nowMs, shared, dutyGroups, cover } = input;
    const judged = input.evaluation ?? evaluate(input);
    const { blindSince } = judged;
    let next = transition(prev.alert, judged.verdict, check.alertSleepMinutes(target.settings), nowMs, randomUUID);
    if (judged.notice && (!next.notification || next.notification.kind === 'warning')) {
        // The notice tells every link of the plan the warning is about, so it stands for that warning (same id,
        // and the warning's clear still follows).
        const incidentId = next.notification?.incidentId ?? randomUUID();
        next = {
            ...next,
            notification: { kind: 'upgrade-notice', incidentId, since: nowMs, message: judged.notice },
        };
    }
    const { memory, verdict } = judged;
    if (check.settle) next = check.settle(shared, { target, reading, memory, verdict, prev: prev.alert, next, nowMs });
    next = dutyGroups.adjust(target, verdict, prev.alert, next, nowMs);
    // Silences and maintenance windows hold messages back; the check, its health and its audit trail go on.
    next = hush(target.id, prev.alert, next, verdict.message ?? null, cover, nowMs);
    next = keepSentWarning(prev.alert, next);
    return { verdict, memory, next, ...(blindSince !== undefined ? { blindSince } : {}) };
}
