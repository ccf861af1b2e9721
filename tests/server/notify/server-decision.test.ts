import { decideHold, HOLD_CAP_MS, type HeldRow, type Sibling } from '../../../server/notify/server-decision';

/** The table of server-decision.ts, row by row: what becomes of alerts held for their server. */

const T = 1_000_000;
const held = (id: number, monitorId: number, at = T): HeldRow => ({
    id,
    key: 'server/7',
    monitorId,
    incidentId: `inc-${monitorId}`,
    kind: 'alert',
    at,
    until: at + 75_000,
});
const sib = (id: number, level: Sibling['level'], checkedAt: number | null = T + 1): Sibling => ({
    id,
    serverId: 7,
    level,
    checkedAt,
});

const alone = (...ids: number[]) => [{ ids, groupKey: null }];

it.each([
    [
        'another monitor healthy after the alert: alone, now',
        [held(1, 1)],
        [sib(1, 'error'), sib(2, 'ok')],
        T + 5_000,
        alone(1),
    ],
    [
        'another healthy, but only from before the alert: wait',
        [held(1, 1)],
        [sib(1, 'error'), sib(2, 'ok', T - 1)],
        T + 5_000,
        [],
    ],
    [
        'every monitor in Error, two of them held: one group, keyed by the first incident',
        [held(1, 1), held(2, 2, T + 3)],
        [sib(1, 'error'), sib(2, 'error'), sib(3, 'error')],
        T + 5_000,
        [{ ids: [1, 2], groupKey: 'server/7/inc-1' }],
    ],
    [
        'every monitor in Error, one held (the others alerted before): alone',
        [held(1, 1)],
        [sib(1, 'error'), sib(2, 'error')],
        T + 5_000,
        alone(1),
    ],
    ['window not over, a sibling unchecked: wait', [held(1, 1)], [sib(1, 'error'), sib(2, 'ok', null)], T + 74_999, []],
    [
        'window over, a sibling unchecked: alone',
        [held(1, 1)],
        [sib(1, 'error'), sib(2, 'ok', null)],
        T + 75_000,
        alone(1),
    ],
    [
        'window over, the others in Warning since: wait for them',
        [held(1, 1)],
        [sib(1, 'error'), sib(2, 'warning')],
        T + 75_000,
        [],
    ],
    [
        'the others still in Warning at the cap: alone',
        [held(1, 1)],
        [sib(1, 'error'), sib(2, 'warning')],
        T + HOLD_CAP_MS,
        alone(1),
    ],
] as [string, HeldRow[], Sibling[], number, unknown][])('%s', (_, rows, siblings, now, expected) => {
    expect(decideHold(rows, siblings, [], now)).toEqual(expected);
});

it.each([
    ['every incident of the group closed: one group', [true, true], 'server/7/inc-1'],
    ['one still open, window not over: wait', [true, false], undefined],
])('recoveries: %s', (_, closed, groupKey) => {
    const rows: HeldRow[] = [{ ...held(5, 1), key: 'server/7/inc-1', kind: 'recovery' }];
    const members = closed.map((c, i) => ({
        key: 'server/7/inc-1',
        incidentId: `inc-${i + 1}`,
        closed: c,
        acknowledged: false,
    }));
    const got = decideHold(rows, [], members, T + 1_000);
    expect(got).toEqual(groupKey ? [{ ids: [5], groupKey }] : []);
});

it('recoveries: the window over with an incident still open: each alone', () => {
    const rows: HeldRow[] = [{ ...held(5, 1), key: 'server/7/inc-1', kind: 'recovery' }];
    const members = [{ key: 'server/7/inc-1', incidentId: 'inc-2', closed: false, acknowledged: false }];
    expect(decideHold(rows, [], members, T + 75_000)).toEqual(alone(5));
});

const member = (n: number, state: 'open' | 'closed' | 'acknowledged' = 'open') => ({
    key: 'server/7/inc-1',
    incidentId: `inc-${n}`,
    closed: state === 'closed',
    acknowledged: state === 'acknowledged',
});
const reminder = (id: number, monitorId: number): HeldRow => ({
    ...held(id, monitorId),
    key: 'server/7/inc-1',
    kind: 'reminder',
    until: T + HOLD_CAP_MS,
});

it.each([
    ['each open incident reminded: one group, now', [1, 2, 3], [member(1), member(2), member(3)], T + 1_000, true],
    ['one not reminded yet, window not over: wait', [1, 2], [member(1), member(2), member(3)], T + 1_000, false],
    [
        'the one not reminded is acknowledged or closed: one group, now',
        [1, 2],
        [member(1), member(2), member(3, 'acknowledged'), member(4, 'closed')],
        T + 1_000,
        true,
    ],
    ['the window over: those that came, as one group', [1], [member(1), member(2)], T + HOLD_CAP_MS, true],
] as [string, number[], ReturnType<typeof member>[], number, boolean][])(
    'reminders: %s',
    (_, reminded, members, now, released) => {
        const rows = reminded.map((m) => reminder(10 + m, m));
        const got = decideHold(rows, [], members, now);
        expect(got).toEqual(released ? [{ ids: rows.map((r) => r.id), groupKey: 'server/7/inc-1' }] : []);
    }
);

it("a group's held reminders and recoveries are decided apart", () => {
    const rows: HeldRow[] = [reminder(11, 1), { ...held(12, 2), key: 'server/7/inc-1', kind: 'recovery' }];
    const members = [member(1), member(2, 'closed')];
    expect(decideHold(rows, [], members, T + 1_000)).toEqual([{ ids: [11], groupKey: 'server/7/inc-1' }]);
});
