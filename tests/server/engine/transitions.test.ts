import type { Verdict } from '../../../server/engine/verdict';
import type { AlertState } from '../../../server/engine/transitions';
import {
    formatDuration,
    INITIAL_ALERT_STATE,
    keepSentWarning,
    transition,
    WARNING_HOLD_MS,
} from '../../../server/engine/transitions';

const ok: Verdict = { level: 'ok', message: null };
const warn: Verdict = { level: 'warning', message: 'Block 10 did not advance (1 of 10 misses)' };
const err: Verdict = { level: 'error', message: 'Node halted at height 10' };
const MIN = 60_000;
const T0 = 1_700_000_000_000;
const id = () => 'inc-1';
const alerting = (since: number, lastNotifiedAt: number): AlertState => ({
    status: 'alerting',
    since,
    lastNotifiedAt,
    incidentId: 'inc-0',
});
const pending: AlertState = { ...INITIAL_ALERT_STATE, status: 'pending' };
/** Pending whose warning was sent a minute before T0. */
const warned: AlertState = { ...pending, warning: { id: 'w-0', since: T0 - MIN }, warnedAt: T0 - MIN };
/** Pending whose warning was held back: one was sent `ago` before T0. */
const held = (ago: number): AlertState => ({ ...pending, warnedAt: T0 - ago });

describe('transition', () => {
    it.each([
        ['Normal + ok stays Normal, silent', INITIAL_ALERT_STATE, ok, T0, 'normal', null, null],
        [
            'Normal + warning → Pending with a warning',
            INITIAL_ALERT_STATE,
            warn,
            T0,
            'pending',
            'warning',
            'Warning: Block 10 did not advance (1 of 10 misses)',
        ],
        [
            'Normal + warning within the hold after the last warning → Pending, silent',
            { ...INITIAL_ALERT_STATE, warnedAt: T0 - 10 * MIN },
            warn,
            T0,
            'pending',
            null,
            'Warning: Block 10 did not advance (1 of 10 misses)',
        ],
        [
            'Normal + error → Alerting with an alert',
            INITIAL_ALERT_STATE,
            err,
            T0,
            'alerting',
            'alert',
            'Entered Error: Node halted at height 10',
        ],
        [
            'Pending (warning sent) + ok → Normal with its clear',
            warned,
            ok,
            T0,
            'normal',
            'warning-cleared',
            'Back to Healthy',
        ],
        ['Pending (warning held back) + ok → Normal, silent', held(MIN), ok, T0, 'normal', null, 'Back to Healthy'],
        [
            'Pending (warning sent) + warning stays Pending, silent (no reminders)',
            warned,
            warn,
            T0 + 600 * MIN,
            'pending',
            null,
            null,
        ],
        ['Pending (held back) + warning within the hold, silent', held(29 * MIN), warn, T0, 'pending', null, null],
        [
            'Pending (held back) + warning after the hold: the warning',
            held(30 * MIN),
            warn,
            T0,
            'pending',
            'warning',
            null,
        ],
        [
            'Pending (warning sent) + error → Alerting with an alert',
            warned,
            err,
            T0,
            'alerting',
            'alert',
            'Entered Error: Node halted at height 10',
        ],
        ['Alerting + error before the sleep: silent', alerting(T0, T0), err, T0 + 9 * MIN, 'alerting', null, null],
        [
            'Alerting + error after the sleep: reminder',
            alerting(T0, T0),
            err,
            T0 + 10 * MIN,
            'alerting',
            'reminder',
            null,
        ],
        [
            'Alerting + warning keeps the incident open, silent',
            alerting(T0, T0),
            warn,
            T0 + 30 * MIN,
            'alerting',
            null,
            null,
        ],
        [
            'Alerting + ok → Normal with a recovery',
            alerting(T0, T0),
            ok,
            T0 + 12 * MIN,
            'normal',
            'recovery',
            'Recovered after 12 min',
        ],
    ] as const)('%s', (_name, prev, verdict, now, status, kind, change) => {
        const next = transition(prev, verdict, 10, now, id);
        expect(next.state.status).toBe(status);
        expect(next.notification?.kind ?? null).toBe(kind);
        expect(next.change).toBe(change);
    });

    it('keeps the incident start and id across reminders and reports the duration on recovery', () => {
        let s = transition(INITIAL_ALERT_STATE, err, 10, T0, id);
        s = transition(s.state, err, 10, T0 + 10 * MIN, id);
        expect(s.notification).toMatchObject({ kind: 'reminder', incidentId: 'inc-1', since: T0 });
        s = transition(s.state, err, 10, T0 + 15 * MIN, id);
        expect(s.notification).toBeNull();
        s = transition(s.state, err, 10, T0 + 20 * MIN, id);
        expect(s.notification?.kind).toBe('reminder');
        s = transition(s.state, ok, 10, T0 + 25 * MIN, id);
        expect(s.notification).toMatchObject({ kind: 'recovery', incidentId: 'inc-1', durationMs: 25 * MIN });
        expect(s.state).toMatchObject({ ...INITIAL_ALERT_STATE, openedAt: [] });
    });

    it('sends exactly one alert and one recovery over a long outage with flapping severity', () => {
        const verdicts = [err, err, warn, err, warn, err, err, ok, ok];
        let state = INITIAL_ALERT_STATE;
        const sent: string[] = [];
        verdicts.forEach((v, i) => {
            const next = transition(state, v, 60, T0 + i * MIN, id);
            if (next.notification) sent.push(next.notification.kind);
            state = next.state;
        });
        expect(sent).toEqual(['alert', 'recovery']);
    });
});

describe('warnings', () => {
    /** Feeds one verdict a minute; returns what was sent, with the minute it was sent at. */
    const run = (verdicts: Verdict[], from = INITIAL_ALERT_STATE) => {
        let state = from;
        let n = 0;
        const sent: { kind: string; at: number; incidentId: string; durationMs?: number }[] = [];
        verdicts.forEach((v, i) => {
            const next = transition(state, v, 10, T0 + i * MIN, () => `inc-${++n}`);
            if (next.notification) sent.push({ ...next.notification, at: i });
            state = next.state;
        });
        return { sent, state };
    };

    it('sends one warning and, when healthy again, one clear naming it and how long it lasted', () => {
        const { sent, state } = run([ok, warn, warn, warn, ok, ok]);
        expect(sent).toMatchObject([
            { kind: 'warning', at: 1, incidentId: 'inc-1' },
            { kind: 'warning-cleared', at: 4, incidentId: 'inc-1', durationMs: 3 * MIN },
        ]);
        expect(state.warning).toBeUndefined();
    });

    it('sends at most two warnings and their clears an hour when toggling ok/warning on every check', () => {
        const toggling = Array.from({ length: 180 }, (_, i) => (i % 2 === 0 ? warn : ok));
        const { sent } = run(toggling);
        for (let hour = 0; hour < 3; hour++) {
            const inHour = sent.filter((m) => m.at >= hour * 60 && m.at < (hour + 1) * 60);
            expect(inHour.length).toBeLessThanOrEqual(4);
        }
        // Every clear follows its own warning: nobody hears of a clear without its warning.
        sent.forEach((m, i) => {
            if (m.kind === 'warning-cleared')
                expect(sent[i - 1]).toMatchObject({ kind: 'warning', incidentId: m.incidentId });
        });
        expect(sent.filter((m) => m.kind === 'warning')).toHaveLength(6);
    });

    it('tells a warning that came back to stay once the hold is over', () => {
        const { sent } = run([warn, ok, ...Array(40).fill(warn)]);
        expect(sent.map((m) => [m.kind, m.at])).toEqual([
            ['warning', 0],
            ['warning-cleared', 1],
            ['warning', WARNING_HOLD_MS / MIN],
        ]);
    });

    it('a warning that turns into an error ends with the alert and its recovery, no clear', () => {
        const { sent } = run([warn, warn, err, err, warn, ok]);
        expect(sent.map((m) => m.kind)).toEqual(['warning', 'alert', 'recovery']);
        // The alert names the warning it ends, for channels that keep an incident open per warning.
        expect(sent[1]).toMatchObject({ kind: 'alert', incidentId: 'inc-2', endsWarning: 'inc-1' });
    });

    it('an alert ends no warning the channels were not told of (held back, or none)', () => {
        const held = run([warn, ok, warn, err]).sent;
        expect(held.map((m) => m.kind)).toEqual(['warning', 'warning-cleared', 'alert']);
        expect(held[2]).not.toHaveProperty('endsWarning');
        expect(run([ok, err]).sent[0]).not.toHaveProperty('endsWarning');
    });

    it('forgets a warning whose message a later step dropped, so no clear follows it', () => {
        const next = transition(INITIAL_ALERT_STATE, warn, 10, T0, id);
        const dropped = keepSentWarning(INITIAL_ALERT_STATE, { ...next, notification: null });
        expect(dropped.state.warning).toBeUndefined();
        expect(transition(dropped.state, ok, 10, T0 + MIN, id).notification).toBeNull();
        expect(keepSentWarning(INITIAL_ALERT_STATE, next)).toEqual(next);
    });
});

describe('flapping', () => {
    /** Feeds one verdict a minute and returns what was sent and what the audit trail received. */
    const run = (verdicts: Verdict[], from = INITIAL_ALERT_STATE, start = T0) => {
        let state = from;
        const sent: { kind: string; at: number; message: string | null; flapping?: boolean }[] = [];
        const changes: string[] = [];
        verdicts.forEach((v, i) => {
            const next = transition(state, v, 10, start + i * MIN, id);
            if (next.notification) sent.push({ ...next.notification, at: i });
            if (next.change) changes.push(next.change);
            state = next.state;
        });
        return { sent, changes, state };
    };
    const flap = (minutes: number) => Array.from({ length: minutes }, (_, i) => (i % 2 === 0 ? err : ok));

    it('sends alert, recovery and one flapping message in an hour of up/down on every check', () => {
        const { sent, changes, state } = run(flap(60));
        expect(sent.map((n) => n.kind)).toEqual(['alert', 'recovery', 'flapping']);
        expect(sent[2]?.message).toMatch(/^Entered Error 2 times within 15 min, now: Node halted at height 10/);
        // Every crossing is still on the audit trail, so the monitor's history stays complete.
        expect(changes).toHaveLength(60);
        expect(state.status).toBe('flapping');
    });

    it('sends at most three messages an hour over three hours of flapping', () => {
        const { sent } = run(flap(180));
        for (let hour = 0; hour < 3; hour++) {
            expect(sent.filter((n) => n.at >= hour * 60 && n.at < (hour + 1) * 60).length).toBeLessThanOrEqual(3);
        }
        expect(sent.filter((n) => n.kind === 'reminder').every((n) => n.flapping)).toBe(true);
    });

    it('turns into a normal alert once it has stayed in Error for 15 min, and recovers once', () => {
        const { sent, state } = run([...flap(6), ...Array(16).fill(err), ...Array(3).fill(ok)]);
        expect(sent.map((n) => n.kind)).toEqual(['alert', 'recovery', 'flapping', 'alert', 'recovery']);
        expect(sent[3]?.message).toBe('Stopped flapping and has been in Error for 15 min: Node halted at height 10');
        expect(sent[4]?.flapping).toBeUndefined();
        expect(state.status).toBe('normal');
    });

    it('ends with one recovery once it has stayed healthy for 15 min', () => {
        const { sent, changes, state } = run([...flap(5), ...Array(16).fill(ok)]);
        expect(sent.map((n) => n.kind)).toEqual(['alert', 'recovery', 'flapping', 'recovery']);
        expect(sent[3]).toMatchObject({ flapping: true, durationMs: 18 * MIN });
        expect(changes.at(-1)).toBe('Stopped flapping, healthy for 15 min');
        expect(state.status).toBe('normal');
    });

    it('does not call two outages 15 min apart flapping: each gets its own alert', () => {
        const { sent } = run([err, ok, ...Array(13).fill(ok), err, ok]);
        expect(sent.map((n) => n.kind)).toEqual(['alert', 'recovery', 'alert', 'recovery']);
    });

    it('keeps an incident saved before flap detection existed', () => {
        const saved: AlertState = { status: 'alerting', since: T0, lastNotifiedAt: T0, incidentId: 'inc-0' };
        const { sent } = run([err, ok], saved, T0 + MIN);
        expect(sent.map((n) => n.kind)).toEqual(['recovery']);
    });
});

describe('formatDuration', () => {
    it.each([
        [45_000, '45 s'],
        [12 * MIN, '12 min'],
        [62 * MIN, '1 h 2 min'],
        [50 * 60 * MIN, '2 d 2 h'],
    ])('%i ms reads %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});
