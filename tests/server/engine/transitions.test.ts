import type { Verdict } from '../../../server/engine/check';
import type { AlertState } from '../../../server/engine/transitions';
import { formatDuration, INITIAL_ALERT_STATE, transition } from '../../../server/engine/transitions';

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

describe('transition', () => {
    it.each([
        ['Normal + ok stays Normal, silent', INITIAL_ALERT_STATE, ok, T0, 'normal', null, null],
        [
            'Normal + warning → Pending, silent',
            INITIAL_ALERT_STATE,
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
        ['Pending + ok → Normal, silent', pending, ok, T0, 'normal', null, 'Back to Healthy'],
        ['Pending + warning stays Pending, silent', pending, warn, T0, 'pending', null, null],
        [
            'Pending + error → Alerting with an alert',
            pending,
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
