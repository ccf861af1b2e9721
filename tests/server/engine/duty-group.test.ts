import type { Verdict } from '../../../server/engine/verdict';
import { DutyGroups } from '../../../server/engine/duty-group';
import type { MonitorTarget } from '../../../server/engine/targets';
import { type AlertState, INITIAL_ALERT_STATE, transition } from '../../../server/engine/transitions';

/** One signing alert per validator: which of its duty monitors' messages go out, step by step. */
const VALOPER = 'cosmosvaloper1xqz9pemz5e5zycaa89kys5aw6m8rhgsvw4328e';
const target = (id: number, type: MonitorTarget['type'], name: string): MonitorTarget => ({
    id,
    name,
    type,
    settings: { valoper_address: VALOPER },
    key: String(id),
    configuration: { id: 1, name: 'Hub', chain: 'cosmoshub', companyId: 1 },
    server: { id: 1, name: 'validator-1', address: 'http://127.0.0.1' },
    services: [],
});
/** Steps hours apart, so no entry into Error counts as flapping. */
const H = 3_600_000;
const error: Verdict = { level: 'error', message: 'down' };
const ok: Verdict = { level: 'ok', message: null };

it('sends the first ALERT, holds the others and their recoveries, and lets a member left in Error speak', () => {
    const groups = new DutyGroups();
    const sign = target(1, 'signMissCheck', 'Signing');
    const budget = target(2, 'slashingWindow', 'Jail budget');
    const blocks = target(3, 'blockCheck', 'Blocks');
    const states = new Map<number, AlertState>();
    let n = 0;
    const step = (t: MonitorTarget, verdict: Verdict, at: number) => {
        const prev = states.get(t.id) ?? INITIAL_ALERT_STATE;
        const next = groups.adjust(
            t,
            verdict,
            prev,
            transition(prev, verdict, 600, at, () => `i${++n}`),
            at
        );
        states.set(t.id, next.state);
        return next.notification?.kind ?? null;
    };
    expect(step(sign, error, 2 * H)).toBe('alert');
    expect(step(budget, error, 4 * H)).toBeNull();
    expect(step(blocks, error, 5 * H)).toBe('alert');
    expect(step(budget, error, 6 * H)).toBeNull();
    // Signing recovers while the jail budget is still over its line: that is now a fact of its own.
    expect(step(sign, ok, 8 * H)).toBe('recovery');
    expect(step(budget, error, 10 * H)).toBe('alert');
    expect(step(budget, ok, 12 * H)).toBe('recovery');
    // A held member that recovers with its leader still alerting sends nothing.
    expect(step(sign, error, 14 * H)).toBe('alert');
    expect(step(budget, error, 15 * H)).toBeNull();
    expect(step(budget, ok, 16 * H)).toBeNull();
    expect(states.get(budget.id)?.grouped).toBeUndefined();
});

it('after a restart, the monitor that alerted still leads: a held member stays held', () => {
    const sign = target(1, 'signMissCheck', 'Signing');
    const budget = target(2, 'slashingWindow', 'Jail budget');
    const leading = transition(INITIAL_ALERT_STATE, error, 600, H, () => 'i1').state;
    const held: AlertState = {
        ...transition(INITIAL_ALERT_STATE, error, 600, H, () => 'i2').state,
        grouped: { leader: 1, name: 'Signing' },
    };
    const restarted = new DutyGroups();
    restarted.restore([sign, budget], (id) => (id === 1 ? leading : held));
    const next = restarted.adjust(
        budget,
        error,
        held,
        transition(held, error, 600, 2 * H, () => 'i3'),
        2 * H
    );
    expect(next.notification).toBeNull();
    expect(next.state.grouped).toEqual({ leader: 1, name: 'Signing' });
});
