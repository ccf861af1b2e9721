import {
    addSighting,
    EMPTY_TALLY,
    isCut,
    type LocationView,
    probeChanges,
    type Sighting,
    sightingsOf,
    type Tally,
} from '../../../server/engine/probe-health';

/** Telling a probe's own network, or its death, apart from its targets' trouble. */

const tallyOf = (...s: Sighting[]): Tally => s.reduce(addSighting, EMPTY_TALLY);
const view = (location: string, live: boolean, byCompany: [number, Tally][], users: number[] = []): LocationView => ({
    location,
    live,
    byCompany: new Map(byCompany),
    users: new Set([...users, ...byCompany.map(([id]) => id)]),
});
const none = { cut: new Set<string>(), silent: new Set<string>() };

describe('how a location reading stood beside the others', () => {
    it.each([
        ['failed where every other location saw it up', [true, false, false], new Set<string>(), 'alone'],
        ['failed where another failed too', [true, true, false], new Set<string>(), 'shared'],
        ['did not fail', [false, true, true], new Set<string>(), 'up'],
        ['had no other location to compare with', [true], new Set<string>(), 'unpaired'],
        // A cut location is no reference: fra-1 alone beside it, sgp-1 beside a cut one only is unpaired.
        ['failed beside a cut location that failed too', [true, true, false], new Set(['sgp-1']), 'alone'],
    ])('%s', (_what, downs, cut, first) => {
        const names = ['fra-1', 'sgp-1', 'local'];
        const s = sightingsOf(
            downs.map((down, i) => ({ location: names[i] as string, down })),
            cut
        );
        expect(s[0]).toEqual({ location: 'fra-1', sighting: first });
    });

    it('counts only the sightings with another location beside them', () => {
        expect(tallyOf('alone', 'alone', 'up', 'shared', 'unpaired')).toEqual({ alone: 2, up: 1, compared: 4 });
    });
});

describe('when a probe has lost its own network', () => {
    it.each<[string, Tally, boolean, boolean]>([
        ['one target failing alone is that target’s problem', tallyOf('alone'), false, false],
        ['two of two failing alone', tallyOf('alone', 'alone'), false, true],
        ['93 of 100 failing alone', { alone: 93, up: 7, compared: 100 }, false, true],
        ['exactly half is not more than half', tallyOf('alone', 'up'), false, false],
        ['failures shared with other locations are the targets’', tallyOf('shared', 'shared', 'alone'), false, false],
        ['a cut probe stays cut while everything is down everywhere', tallyOf('shared', 'shared'), true, true],
        ['a cut probe with no fresh sightings stays cut', EMPTY_TALLY, true, true],
        ['a cut probe seeing half up stays cut', tallyOf('up', 'alone'), true, true],
        ['a cut probe seeing most targets up is back', tallyOf('up', 'up', 'alone'), true, false],
    ])('%s', (_what, t, wasCut, cut) => {
        expect(isCut(t, wasCut)).toBe(cut);
    });
});

describe('the changes told', () => {
    it('tells a cut once, to each company with a target failing from it only, with that company’s counts', () => {
        const views = [
            view('fra-1', true, [
                [1, tallyOf('alone', 'alone', 'alone', 'up')],
                [2, tallyOf('alone')],
                [3, tallyOf('up')],
            ]),
            view('sgp-1', true, [[1, tallyOf('up', 'up', 'shared', 'shared')]]),
        ];
        expect(probeChanges(views, none)).toEqual([
            {
                kind: 'probe-cut',
                location: 'fra-1',
                companies: new Map([
                    [1, { failing: 3, checked: 4 }],
                    [2, { failing: 1, checked: 1 }],
                ]),
            },
        ]);
        expect(probeChanges(views, { cut: new Set(['fra-1']), silent: new Set() })).toEqual([]);
    });

    it('tells a cut probe back once it sees most targets up', () => {
        const views = [view('fra-1', true, [[1, tallyOf('up', 'up')]])];
        expect(probeChanges(views, { cut: new Set(['fra-1']), silent: new Set() })).toEqual([
            { kind: 'probe-back', location: 'fra-1' },
        ]);
    });

    it('names a silent probe to the companies checking from it or naming it, and tells when it reports again', () => {
        const silent = [view('fra-1', false, [], [4, 2])];
        expect(probeChanges(silent, none)).toEqual([{ kind: 'probe-silent', location: 'fra-1', companies: [2, 4] }]);
        expect(probeChanges(silent, { cut: new Set(), silent: new Set(['fra-1']) })).toEqual([]);
        const back = [view('fra-1', true, [])];
        expect(probeChanges(back, { cut: new Set(), silent: new Set(['fra-1']) })).toEqual([
            { kind: 'probe-reporting', location: 'fra-1' },
        ]);
    });

    it('does not report a location nobody names and nobody checks from', () => {
        expect(probeChanges([view('old-1', false, [])], none)).toEqual([]);
    });

    it('keeps a cut probe that falls silent cut, and names it silent', () => {
        expect(probeChanges([view('fra-1', false, [], [1])], { cut: new Set(['fra-1']), silent: new Set() })).toEqual([
            { kind: 'probe-silent', location: 'fra-1', companies: [1] },
        ]);
    });
});
