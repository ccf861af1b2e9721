import type { Verdict } from '../../../server/engine/verdict';
import { type AlertState, INITIAL_ALERT_STATE, transition } from '../../../server/engine/transitions';
import type { Cover } from '../../../server/silences/active';
import { hush } from '../../../server/silences/hush';
import { occurrence, WEEK_MS } from '../../../server/silences/occurrence';

/** One monitor's checks through transition() and hush(), as the engine runs them; returns what would be sent. */
function run(steps: { level: Verdict['level']; covered: boolean }[], start: AlertState = INITIAL_ALERT_STATE) {
    let state = start;
    let now = 1_000_000;
    let n = 0;
    const sent: string[] = [];
    const changes: string[] = [];
    for (const step of steps) {
        now += 60_000;
        const verdict: Verdict = { level: step.level, message: step.level === 'ok' ? null : 'height stuck' };
        const cover: Cover | null = step.covered
            ? { kind: 'silence', id: 1, until: now + 3600_000, reason: 'Rebuilding' }
            : null;
        const next = hush(
            7,
            state,
            transition(state, verdict, 30, now, () => `inc-${++n}`),
            verdict.message,
            cover,
            now
        );
        if (next.notification) sent.push(next.notification.kind);
        if (next.change) changes.push(next.change);
        state = next.state;
    }
    return { sent, changes, state };
}

const silent = (level: Verdict['level']) => ({ level, covered: true });
const loud = (level: Verdict['level']) => ({ level, covered: false });

describe('hush: what a silence holds back and what it sends when it ends', () => {
    it.each([
        {
            name: 'halt inside the silence sends nothing',
            steps: [silent('ok'), silent('error'), silent('error')],
            sent: [],
        },
        {
            name: 'still down when it ends: one alert, then reminders as usual',
            steps: [silent('error'), silent('error'), loud('error'), loud('error')],
            sent: ['alert'],
        },
        {
            name: 'down and recovered within the silence: nothing, also after it',
            steps: [silent('error'), silent('ok'), loud('ok'), loud('ok')],
            sent: [],
        },
        {
            name: 'recovers on the first check after it: nothing (the channels never heard of it)',
            steps: [silent('error'), loud('ok'), loud('ok')],
            sent: [],
        },
        {
            name: 'alerted before the silence, recovered during it: the recovery comes when it ends',
            steps: [loud('error'), silent('error'), silent('ok'), silent('ok'), loud('ok'), loud('ok')],
            sent: ['alert', 'recovery'],
        },
        {
            name: 'alerted before, still down at the end: one alert at the end',
            steps: [loud('error'), silent('error'), silent('error'), loud('error'), loud('error')],
            sent: ['alert', 'alert'],
        },
        {
            name: 'flapping inside the silence sends nothing',
            steps: [silent('error'), silent('ok'), silent('error'), silent('ok'), silent('error')],
            sent: [],
        },
    ])('$name', ({ steps, sent }) => {
        expect(run(steps).sent).toEqual(sent);
    });

    it('keeps the audit trail, noting the silence', () => {
        const { changes } = run([silent('error'), silent('ok')]);
        expect(changes[0]).toMatch(/^Entered Error: height stuck \(held back: silenced until .* UTC: Rebuilding\)$/);
        expect(changes[1]).toMatch(/^Recovered after 1 min \(held back: silenced until/);
    });

    it('keeps what it owes in the saved state, so a restart sends it once', () => {
        const during = run([silent('error'), silent('error')]).state;
        // The state goes through JSON, as monitor_states stores it; the next check after a restart is uncovered.
        const restored = JSON.parse(JSON.stringify(during)) as AlertState;
        expect(restored.silenced).toEqual({ announced: false });
        const after = run([loud('error'), loud('error')], restored);
        expect(after.sent).toEqual(['alert']);
        expect(after.state.silenced).toBeUndefined();
    });
});

describe('hush and a chain halt', () => {
    const chain = { id: 'halt-1', height: 500, since: 1_000_000, reporter: 7 };
    const halted: AlertState = {
        status: 'alerting',
        since: 1_000_000,
        lastNotifiedAt: 1_000_000,
        incidentId: 'inc-1',
        chain,
        silenced: { announced: false },
    };
    const stillHalted = (state: AlertState) => ({ state, notification: null, change: null });

    it('the reporter sends the CHAIN STALLED it held back, once, when the silence ends', () => {
        const next = hush(7, halted, stillHalted(halted), 'height stuck', null, 2_000_000);
        expect(next.notification).toMatchObject({ kind: 'chain-stalled', incidentId: 'halt-1' });
        expect(next.notification?.message).toContain('height 500');
        expect(next.state.silenced).toBeUndefined();
        expect(hush(7, next.state, stillHalted(next.state), 'height stuck', null, 2_060_000).notification).toBeNull();
    });

    it('another member of the halt stays quiet: the chain speaks through its reporter', () => {
        const next = hush(8, halted, stillHalted(halted), 'height stuck', null, 2_000_000);
        expect(next.notification).toBeNull();
        expect(next.state.silenced).toBeUndefined();
    });
});

describe('occurrence of a weekly window', () => {
    const w = { startsAt: 0, endsAt: 3600_000, repeatWeekly: true };
    it.each([
        { at: 1800_000, on: [0, 3600_000] },
        { at: 2 * 3600_000, on: [WEEK_MS, WEEK_MS + 3600_000] },
        { at: 3 * WEEK_MS + 60_000, on: [3 * WEEK_MS, 3 * WEEK_MS + 3600_000] },
    ])('at $at the current or next one is $on', ({ at, on }) => {
        expect(occurrence(w, at)).toEqual({ startsAt: on[0], endsAt: on[1] });
    });
    it('a one-off window is over after its end', () => {
        expect(occurrence({ ...w, repeatWeekly: false }, 2 * 3600_000)).toBeNull();
    });
});
