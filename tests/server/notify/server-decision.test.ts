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
    const members = closed.map((c, i) => ({ key: 'server/7/inc-1', incidentId: `inc-${i + 1}`, closed: c }));
    const got = decideHold(rows, [], members, T + 1_000);
    expect(got).toEqual(groupKey ? [{ ids: [5], groupKey }] : []);
});

it('recoveries: the window over with an incident still open: each alone', () => {
    const rows: HeldRow[] = [{ ...held(5, 1), key: 'server/7/inc-1', kind: 'recovery' }];
    const members = [{ key: 'server/7/inc-1', incidentId: 'inc-2', closed: false }];
    expect(decideHold(rows, [], members, T + 75_000)).toEqual(alone(5));
});
