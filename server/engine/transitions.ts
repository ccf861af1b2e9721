import type { Verdict } from './check';

/**
 * The alert state of one monitor, kept apart from its health (Grafana keeps rule health and instance state apart
 * too): health is the latest verdict, shown on the dashboard; the alert state decides what is sent.
 *
 *   state     verdict   → next      sends
 *   Normal    ok        → Normal    —
 *   Normal    warning   → Pending   —            (warnings are shown, never sent)
 *   Normal    error     → Alerting  alert
 *   Pending   ok        → Normal    —
 *   Pending   warning   → Pending   —
 *   Pending   error     → Alerting  alert
 *   Alerting  error     → Alerting  reminder, when alert_sleep_duration_minutes passed since the last message
 *   Alerting  warning   → Alerting  —            (the incident stays open: no recovery/alert ping-pong)
 *   Alerting  ok        → Normal    recovery, naming how long the incident lasted
 */
export type AlertStatus = 'normal' | 'pending' | 'alerting';

export interface AlertState {
    status: AlertStatus;
    /** Start of the open incident (ms since epoch), null when none is open. */
    since: number | null;
    /** When the last alert or reminder of the open incident was queued. */
    lastNotifiedAt: number | null;
    /** Identifies the incident in every message about it, so a duplicate delivery is recognisable. */
    incidentId: string | null;
}

export type NotificationKind = 'alert' | 'reminder' | 'recovery';

export interface Notification {
    kind: NotificationKind;
    incidentId: string;
    since: number;
    /** For a recovery, how long the incident lasted. */
    durationMs?: number;
    /** What is wrong (alert, reminder) or what was wrong last (recovery). */
    message: string | null;
}

export interface Transition {
    state: AlertState;
    notification: Notification | null;
    /** A sentence for the audit trail when the alert state or health level changed, else null. */
    change: string | null;
}

export const INITIAL_ALERT_STATE: AlertState = {
    status: 'normal',
    since: null,
    lastNotifiedAt: null,
    incidentId: null,
};

export function transition(
    prev: AlertState,
    verdict: Verdict,
    alertSleepMinutes: number,
    nowMs: number,
    newIncidentId: () => string
): Transition {
    if (prev.status !== 'alerting') {
        if (verdict.level === 'error') {
            const incidentId = newIncidentId();
            return {
                state: { status: 'alerting', since: nowMs, lastNotifiedAt: nowMs, incidentId },
                notification: { kind: 'alert', incidentId, since: nowMs, message: verdict.message },
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
        return { state: { ...INITIAL_ALERT_STATE, status }, notification: null, change };
    }
    const since = prev.since ?? nowMs;
    const incidentId = prev.incidentId ?? newIncidentId();
    if (verdict.level === 'ok') {
        return {
            state: INITIAL_ALERT_STATE,
            notification: { kind: 'recovery', incidentId, since, durationMs: nowMs - since, message: verdict.message },
            change: `Recovered after ${formatDuration(nowMs - since)}`,
        };
    }
    const due = verdict.level === 'error' && nowMs - (prev.lastNotifiedAt ?? since) >= alertSleepMinutes * 60_000;
    return {
        state: { status: 'alerting', since, incidentId, lastNotifiedAt: due ? nowMs : prev.lastNotifiedAt },
        notification: due ? { kind: 'reminder', incidentId, since, message: verdict.message } : null,
        change: null,
    };
}

/** 3725000 → "1 h 2 min"; 45000 → "45 s". */
export function formatDuration(ms: number): string {
    const s = Math.max(0, Math.round(ms / 1000));
    if (s < 60) return `${s} s`;
    const m = Math.floor(s / 60);
    if (m < 60) return `${m} min`;
    const h = Math.floor(m / 60);
    if (h < 48) return `${h} h ${m % 60} min`;
    return `${Math.floor(h / 24)} d ${h % 24} h`;
}
