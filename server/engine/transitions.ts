import { formatDuration } from '../../common/duration';
import type { Verdict } from './verdict';
import type { NotificationFacts, NotificationKind } from '../notify/record';

/**
 * The alert state of one monitor, kept apart from its health (Grafana keeps rule health and instance state apart
 * too): health is the latest verdict, shown on the dashboard; the alert state decides what is sent.
 *
 *   state     verdict   → next      sends
 *   Normal    ok        → Normal    —
 *   Normal    warning   → Pending   warning      (routed only to links with min_severity warning; held, see below)
 *   Normal    error     → Alerting  alert        (→ Flapping with a flapping message instead, when this is the
 *                                                  second time it entered Error within 15 min)
 *   Pending   ok        → Normal    warning-cleared, when its warning was sent
 *   Pending   warning   → Pending   —            (warning, when it was held back and the hold is over)
 *   Pending   error     → Alerting  alert        (or → Flapping, as from Normal; the alert's recovery ends the
 *                                                  warning too, so no warning-cleared follows: the alert names
 *                                                  the warning it ends, for channels that keep incidents)
 *   Alerting  error     → Alerting  reminder, when alert_sleep_duration_minutes passed since the last message
 *   Alerting  warning   → Alerting  —            (the incident stays open: no recovery/alert ping-pong)
 *   Alerting  ok        → Normal    recovery, naming how long the incident lasted
 *   Flapping  any       → Flapping  —            (a reminder at most hourly), until the verdict has not crossed
 *                                                 between Error and not Error for 15 min; then
 *                       → Alerting  alert        if it settled in Error
 *                       → Normal    recovery     if it settled healthy (Pending on a warning)
 *
 * A target that goes up and down on every check thus sends alert, recovery and one flapping message in its
 * first hour, instead of an alert and a recovery per check that teach operators to mute the channel.
 *
 * Warnings are never reminded of. A warning is announced at most once per WARNING_HOLD_MS: one entered sooner after
 * the last announced one stays silent (and so does its end), and is announced once the hold is over if it is still
 * there. A monitor toggling between ok and warning on every check thus sends a warning and its clear twice an hour,
 * while a warning that comes back to stay is still told, at most 30 min late. A warning within an open Error
 * incident or a flapping episode sends nothing: that incident stays open as it is.
 */
/**
 * What a monitor's alert state remembers of a silence (or maintenance window) that held its messages back. Kept in
 * the persisted alert state, saved in the same transaction as the outbox rows, so the one message owed when the
 * silence ends goes out once: after a restart too, and never twice.
 */
export interface Hush {
    /** Whether the channels were told of the open incident (its alert went out before the silence began). */
    announced: boolean;
    /** The recovery of an announced incident, held back during the silence: sent when it ends. */
    owed?: NotificationFacts;
}

export type AlertStatus = 'normal' | 'pending' | 'alerting' | 'flapping';

export interface AlertState {
    status: AlertStatus;
    /** Start of the open incident (ms since epoch), null when none is open. */
    since: number | null;
    /** When the last alert or reminder of the open incident was queued. */
    lastNotifiedAt: number | null;
    /** Identifies the incident in every message about it, so a duplicate delivery is recognisable. */
    incidentId: string | null;
    /** When it entered Error within the flap window, for flap detection (absent in states saved before it). */
    openedAt?: number[];
    /** When the verdict last crossed between Error and not Error. */
    changedAt?: number | null;
    /** While flapping: whether the latest verdict was an error. */
    failing?: boolean;
    /** The chain halt this monitor's incident is part of (blockCheck; see chain-halt.ts). */
    chain?: ChainIncident;
    /** The chain halt this monitor ended, so that a restart does not end it a second time. */
    chainEnded?: { id: string; at: number };
    /** A validator-duty monitor whose Error is part of another monitor's signing alert (duty-group.ts). */
    grouped?: { leader: number; name: string };
    /** A silence held this monitor's messages back (server/silences/hush.ts). */
    silenced?: Hush;
    /** While Pending: the warning that was sent, which its clear names (absent when it was held back). */
    warning?: { id: string; since: number };
    /** When a warning was last sent, for the hold between two of them. */
    warnedAt?: number;
}

export interface ChainIncident {
    id: string;
    /** The height the chain stands at. */
    height: number;
    since: number;
    /** The monitor that sent CHAIN STALLED, and sends its reminders. */
    reporter: number;
    /** The chain id its nodes reported (absent in incidents saved before it was kept). */
    network?: string;
}

/** What a notification tells: one type, defined with the records the channels read (engine → notify only). */
export type { NotificationFacts as Notification, NotificationKind };

export interface Transition {
    state: AlertState;
    notification: NotificationFacts | null;
    /** A sentence for the audit trail when the alert state or health level changed, else null. */
    change: string | null;
    /**
     * What a silence kept from the channels (server/silences/hush.ts): not sent, but the incident it opens, adds to
     * or closes is still recorded, so an outage inside a silence is an incident from the moment it began.
     */
    held?: NotificationFacts;
    /** For a held recovery the channels are owed: when the silence or window ends and it is sent (ms). */
    heldUntil?: number;
    /** A planned state the target is in (an upgrade hold), not a problem of it: its change is logged at info. */
    expected?: boolean;
}

export const INITIAL_ALERT_STATE: AlertState = {
    status: 'normal',
    since: null,
    lastNotifiedAt: null,
    incidentId: null,
};

/**
 * Entering Error FLAP_OPENINGS times within the window is flapping: the second time already, so that a target
 * going up and down on every check sends no more than three messages an hour. The window is short so that two
 * separate outages of a working node each get their own alert.
 */
const FLAP_WINDOW_MS = 15 * 60_000;
const FLAP_OPENINGS = 2;
/** Flapping ends once the verdict has not crossed between Error and not Error for this long. */
export const FLAP_STABLE_MS = 15 * 60_000;
const FLAP_REMINDER_MINUTES = 60;
/** At most one warning is sent per this long (see the table above). */
export const WARNING_HOLD_MS = 30 * 60_000;

export function transition(
    prev: AlertState,
    verdict: Verdict,
    alertSleepMinutes: number,
    nowMs: number,
    newIncidentId: () => string
): Transition {
    const failing = verdict.level === 'error';
    const wasFailing = prev.status === 'alerting' || (prev.status === 'flapping' && prev.failing === true);
    const crossed = failing !== wasFailing;
    const openedAt = (prev.openedAt ?? []).filter((t) => nowMs - t < FLAP_WINDOW_MS);
    if (failing && !wasFailing) openedAt.push(nowMs);
    const changedAt = crossed ? nowMs : (prev.changedAt ?? prev.since ?? nowMs);
    const history = { openedAt, changedAt, ...(prev.warnedAt !== undefined ? { warnedAt: prev.warnedAt } : {}) };
    if (prev.status === 'flapping') return flappingStep(prev, verdict, alertSleepMinutes, nowMs, history, crossed);

    if (prev.status !== 'alerting') {
        if (failing) {
            const incidentId = newIncidentId();
            const endsWarning = prev.status === 'pending' && prev.warning ? { endsWarning: prev.warning.id } : {};
            if (openedAt.length >= FLAP_OPENINGS) {
                const message = `Entered Error ${openedAt.length} times within ${formatDuration(FLAP_WINDOW_MS)}, now: ${verdict.message ?? 'no message'}. Further changes are held back until it is stable for ${formatDuration(FLAP_STABLE_MS)}.`;
                return {
                    state: {
                        status: 'flapping',
                        since: nowMs,
                        lastNotifiedAt: nowMs,
                        incidentId,
                        failing: true,
                        ...history,
                    },
                    notification: {
                        kind: 'flapping',
                        incidentId,
                        since: nowMs,
                        message,
                        flapping: true,
                        ...endsWarning,
                    },
                    change: `Flapping: entered Error ${openedAt.length} times within ${formatDuration(FLAP_WINDOW_MS)}: ${verdict.message ?? 'no message'}`,
                };
            }
            return {
                state: { status: 'alerting', since: nowMs, lastNotifiedAt: nowMs, incidentId, ...history },
                notification: { kind: 'alert', incidentId, since: nowMs, message: verdict.message, ...endsWarning },
                change: `Entered Error: ${verdict.message ?? 'no message'}`,
            };
        }
        const status = verdict.level === 'warning' ? 'pending' : 'normal';
        const change =
            status === prev.status
                ? null
                : status === 'pending'
                  ? `Warning: ${verdict.message ?? 'no message'}`
                  : 'Back to Healthy';
        return { ...warningStep(prev, verdict, nowMs, history, newIncidentId), change };
    }
    const since = prev.since ?? nowMs;
    const incidentId = prev.incidentId ?? newIncidentId();
    if (verdict.level === 'ok') {
        return {
            state: { ...INITIAL_ALERT_STATE, ...history },
            notification: { kind: 'recovery', incidentId, since, durationMs: nowMs - since, message: verdict.message },
            change: `Recovered after ${formatDuration(nowMs - since)}`,
        };
    }
    const due = failing && nowMs - (prev.lastNotifiedAt ?? since) >= alertSleepMinutes * 60_000;
    return {
        state: {
            status: 'alerting',
            since,
            incidentId,
            lastNotifiedAt: due ? nowMs : prev.lastNotifiedAt,
            ...history,
        },
        notification: due ? { kind: 'reminder', incidentId, since, message: verdict.message } : null,
        change: null,
    };
}

/** Between Normal and Pending: sends a warning on entering Pending, unless held, and its clear on leaving. */
function warningStep(
    prev: AlertState,
    verdict: Verdict,
    nowMs: number,
    history: { openedAt: number[]; changedAt: number; warnedAt?: number },
    newIncidentId: () => string
): Omit<Transition, 'change'> {
    const sent = prev.status === 'pending' ? prev.warning : undefined;
    if (verdict.level !== 'warning') {
        const state = { ...INITIAL_ALERT_STATE, ...history };
        if (!sent) return { state, notification: null };
        const durationMs = nowMs - sent.since;
        const cleared = { kind: 'warning-cleared', incidentId: sent.id, since: sent.since, durationMs } as const;
        return { state, notification: { ...cleared, message: verdict.message } };
    }
    const pending = { ...INITIAL_ALERT_STATE, status: 'pending' as const, ...history };
    if (sent) return { state: { ...pending, warning: sent }, notification: null };
    if (history.warnedAt !== undefined && nowMs - history.warnedAt < WARNING_HOLD_MS)
        return { state: pending, notification: null };
    const warning = { id: newIncidentId(), since: nowMs };
    return {
        state: { ...pending, warning, warnedAt: nowMs },
        notification: { kind: 'warning', incidentId: warning.id, since: nowMs, message: verdict.message },
    };
}

/**
 * A warning counts as sent only when its notification leaves: when a later step (a chain halt, a silence) drops or
 * replaces it by one about something else, the state forgets it, so no clear follows a warning nobody heard of.
 */
export function keepSentWarning(prev: AlertState, next: Transition): Transition {
    const warning = next.state.warning;
    if (!warning || warning.id === prev.warning?.id || next.notification?.incidentId === warning.id) return next;
    return { ...next, state: { ...next.state, warning: undefined, warnedAt: prev.warnedAt } };
}

/** Holds messages back while the verdict keeps crossing; every crossing still goes to the audit trail. */
function flappingStep(
    prev: AlertState,
    verdict: Verdict,
    alertSleepMinutes: number,
    nowMs: number,
    history: { openedAt: number[]; changedAt: number },
    crossed: boolean
): Transition {
    const failing = verdict.level === 'error';
    const since = prev.since ?? nowMs;
    const incidentId = prev.incidentId ?? '';
    const message = verdict.message ?? 'no message';
    if (nowMs - history.changedAt >= FLAP_STABLE_MS) {
        const steady = formatDuration(nowMs - history.changedAt);
        if (failing) {
            return {
                state: { status: 'alerting', since, lastNotifiedAt: nowMs, incidentId, ...history },
                notification: {
                    kind: 'alert',
                    incidentId,
                    since,
                    message: `Stopped flapping and has been in Error for ${steady}: ${message}`,
                },
                change: `Stopped flapping, in Error for ${steady}: ${message}`,
            };
        }
        return {
            state: { ...INITIAL_ALERT_STATE, status: verdict.level === 'warning' ? 'pending' : 'normal', ...history },
            notification: {
                kind: 'recovery',
                incidentId,
                since,
                durationMs: nowMs - since,
                message: verdict.message,
                flapping: true,
            },
            change: `Stopped flapping, healthy for ${steady}`,
        };
    }
    const due = nowMs - (prev.lastNotifiedAt ?? since) >= Math.max(alertSleepMinutes, FLAP_REMINDER_MINUTES) * 60_000;
    return {
        state: {
            status: 'flapping',
            since,
            incidentId,
            failing,
            lastNotifiedAt: due ? nowMs : prev.lastNotifiedAt,
            ...history,
        },
        notification: due
            ? {
                  kind: 'reminder',
                  incidentId,
                  since,
                  message: `Still flapping: entered Error ${history.openedAt.length} times within ${formatDuration(FLAP_WINDOW_MS)}, now ${failing ? message : 'healthy'}`,
                  flapping: true,
              }
            : null,
        change: crossed ? (failing ? `Entered Error while flapping: ${message}` : 'Healthy while flapping') : null,
    };
}

/** 3725000 → "1 h 2 min"; 45000 → "45 s" (kept here for the engine's callers). */
export { formatDuration };
