import { CHECKS } from './checks';
import type { Verdict } from './verdict';
import type { MonitorTarget } from './targets';
import type { AlertState, Transition } from './transitions';

/**
 * One signing alert per validator. When a validator misses blocks, its signing monitor, its jail budget and its
 * active-set monitor all go to Error for the same fact; the channel gets the first one's ALERT and the others are
 * held as part of it (their checks, health and audit trail go on). Per configuration and valoper:
 *
 *   no group alert open, a member enters Error     → it sends its ALERT and leads the group
 *   the leader alerting, another member enters Error → held (no ALERT, no reminders, no recovery of its own)
 *   the leader recovers, a held member still Error  → the member sends its own ALERT and leads
 *   a held member recovers                         → nothing (its incident was never announced)
 *
 * Members are the types whose check says `signingGroup`; the node's own monitors are not: a stalled node is a
 * second fact.
 */
const member = (target: MonitorTarget) => CHECKS[target.type].signingGroup === true;

const alerting = (s: AlertState) => s.status === 'alerting' || (s.status === 'flapping' && s.failing === true);

function groupKey(target: MonitorTarget): string {
    const valoper = target.settings.valoper_address;
    return `${target.configuration.id}|${typeof valoper === 'string' ? valoper.trim() : ''}`;
}

export class DutyGroups {
    /** Group key → the monitor whose ALERT announced the group's open incident. */
    private readonly leaders = new Map<string, { id: number; name: string }>();

    /** After a restart: the members in Error that were not held lead their groups again, before any check runs. */
    restore(targets: Iterable<MonitorTarget>, stateOf: (id: number) => AlertState | undefined): void {
        for (const t of targets) {
            const s = stateOf(t.id);
            if (member(t) && s && alerting(s) && !s.grouped) this.leaders.set(groupKey(t), { id: t.id, name: t.name });
        }
    }

    adjust(target: MonitorTarget, verdict: Verdict, prev: AlertState, next: Transition, nowMs: number): Transition {
        if (!member(target)) return next;
        const key = groupKey(target);
        const leader = this.leaders.get(key);
        const failing = alerting(next.state);
        if (leader?.id === target.id) {
            if (!failing) this.leaders.delete(key);
            return next;
        }
        const heldBy = prev.grouped;
        if (!heldBy) {
            if (!failing) return next;
            if (!leader) {
                this.leaders.set(key, { id: target.id, name: target.name });
                return next;
            }
            // Entering Error while the group's alert is open: part of it.
            return this.hold(next, { leader: leader.id, name: leader.name });
        }
        const { grouped: _, ...free } = next.state;
        if (!failing) return { ...next, state: free, notification: null, held: next.notification ?? undefined };
        if (leader?.id === heldBy.leader) return this.hold(next, heldBy);
        // The group's alert closed while this one is still in Error: it is a fact of its own now.
        this.leaders.set(key, { id: target.id, name: target.name });
        const incidentId = next.state.incidentId ?? `${target.id}-${nowMs}`;
        return {
            ...next,
            state: { ...free, incidentId, lastNotifiedAt: nowMs },
            notification: { kind: 'alert', incidentId, since: next.state.since ?? nowMs, message: verdict.message },
        };
    }

    private hold(next: Transition, by: { leader: number; name: string }): Transition {
        return {
            ...next,
            state: { ...next.state, grouped: by },
            notification: null,
            held: next.notification ?? undefined,
            change: next.change ? `${next.change} (held: part of the signing alert of "${by.name}")` : next.change,
        };
    }
}
