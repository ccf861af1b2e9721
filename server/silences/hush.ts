import { utc } from '../../common/duration';
import type { NotificationKind } from '../notify/record';
import type { AlertState, Hush, Notification, Transition } from '../engine/transitions';
import type { Cover } from './active';

/** Kinds a silence holds back (warnings too); notices of planned upgrades still go out. */
const HELD: ReadonlySet<NotificationKind> = new Set([
    'alert',
    'reminder',
    'recovery',
    'flapping',
    'chain-stalled',
    'chain-resumed',
    'warning',
    'warning-cleared',
]);
const isRecovery = (n: Notification) => n.kind === 'recovery' || n.kind === 'chain-resumed';
const isOpen = (s: AlertState) => s.status === 'alerting' || s.status === 'flapping';
const isFailing = (s: AlertState) => s.status === 'alerting' || (s.status === 'flapping' && s.failing === true);

export const coverNote = (cover: Cover) =>
    `${cover.kind === 'silence' ? 'silenced' : 'maintenance window'} until ${utc(cover.until)}: ${cover.reason}`;

/**
 * Applies silences to a monitor's transition (run after the chain-halt step, on what it would send):
 *
 *   covered    sends          → held back; the audit sentence says so
 *              alert/flapping → the incident is open and unannounced
 *              recovery       → nothing owed if it was unannounced; owed (sent at the end) if it was announced
 *   uncovered, after a silence:
 *              still in Error → one ALERT (a chain-halt member: CHAIN STALLED from its reporter, if never sent)
 *              healthy        → the owed recovery, if any, else nothing
 *              a message of its own (it recovered or re-failed on this very check) → that message only; a recovery
 *                of an incident the channels never heard of → nothing
 */
export function hush(
    monitorId: number,
    prev: AlertState,
    next: Transition,
    verdictMessage: string | null,
    cover: Cover | null,
    nowMs: number
): Transition {
    if (cover) return holdBack(prev, next, cover);
    const before = prev.silenced;
    if (!before) return next;
    return release(monitorId, before, next, verdictMessage, nowMs);
}

function holdBack(prev: AlertState, next: Transition, cover: Cover): Transition {
    const n = next.notification && HELD.has(next.notification.kind) ? next.notification : null;
    let h: Hush | undefined = prev.silenced ?? (isOpen(prev) ? { announced: true } : undefined);
    if (n && isRecovery(n)) h = h?.announced ? { announced: true, owed: n } : undefined;
    else if (isOpen(next.state)) h = !isOpen(prev) ? { announced: false } : (h ?? { announced: false });
    else if (!h?.owed) h = undefined;
    const changed = JSON.stringify(h) !== JSON.stringify(prev.silenced);
    const change = next.change
        ? `${next.change} (held back: ${coverNote(cover)})`
        : changed && h
          ? `Messages held back: ${coverNote(cover)}`
          : null;
    const held = n ? { held: n, ...(h?.owed === n ? { heldUntil: cover.until } : {}) } : {};
    return { ...next, ...held, state: withHush(next.state, h), notification: n ? null : next.notification, change };
}

function release(
    monitorId: number,
    before: Hush,
    next: Transition,
    verdictMessage: string | null,
    nowMs: number
): Transition {
    const state = withHush(next.state, undefined);
    const n = next.notification;
    if (n) {
        if (isRecovery(n) && !before.announced) {
            const change = next.change && `${next.change} (after a silence: nothing sent)`;
            return { ...next, state, notification: null, held: n, change };
        }
        return { ...next, state };
    }
    if (isFailing(next.state)) {
        const chain = next.state.chain;
        if (chain) {
            // A chain halt speaks once per configuration, through its reporter.
            if (chain.reporter !== monitorId || before.announced) return { ...next, state, change: 'Silence over' };
            return {
                ...next,
                state: { ...state, lastNotifiedAt: nowMs },
                notification: {
                    kind: 'chain-stalled',
                    incidentId: chain.id,
                    since: chain.since,
                    message: `No new block after height ${chain.height} on any watched node; the silence ended while the chain is still stalled`,
                },
                change: 'Silence over, the chain still stalled: CHAIN STALLED sent',
            };
        }
        return {
            ...next,
            state: { ...state, lastNotifiedAt: nowMs },
            notification: {
                kind: 'alert',
                incidentId: next.state.incidentId ?? `silence-${monitorId}-${nowMs}`,
                since: next.state.since ?? nowMs,
                message: `Still in Error as the silence ended: ${verdictMessage ?? 'no message'}`,
            },
            change: 'Silence over, still in Error: alert sent',
        };
    }
    // Flapping, healthy for now: whatever it settles on decides, and an unannounced recovery stays unsent.
    if (isOpen(next.state)) return { ...next, state: withHush(next.state, before) };
    if (before.owed) {
        return {
            ...next,
            state,
            notification: before.owed,
            change: 'Silence over: the recovery held back during it is sent',
        };
    }
    return { ...next, state };
}

function withHush(state: AlertState, h: Hush | undefined): AlertState {
    const { silenced: _drop, ...rest } = state;
    return h ? { ...rest, silenced: h } : rest;
}
