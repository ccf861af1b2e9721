import { type LocationRead, weighLocations } from '../../../server/engine/across-locations';
import { ChainHalts } from '../../../server/engine/chain-halt';
import type { Check } from '../../../server/engine/check';
import { DutyGroups } from '../../../server/engine/duty-group';
import { evaluate, judge } from '../../../server/engine/judge';
import type { PersistedState } from '../../../server/engine/results';
import type { MonitorTarget } from '../../../server/engine/targets';
import { INITIAL_ALERT_STATE } from '../../../server/engine/transitions';
import { UpgradeHolds } from '../../../server/engine/upgrade-hold';

/** A failure confirmed from several probe locations: how one slot's readings weigh into one verdict. */

/** A check that is Ok when it reads, in Error with the read's own sentence when it does not; it counts its reads. */
const check: Check<string, number> = {
    intervalSeconds: () => 5,
    alertSleepMinutes: () => 60,
    read: async () => 'up',
    evaluate: (memory, reading) => ({
        memory: (memory ?? 0) + 1,
        verdict: reading.ok ? { level: 'ok', message: null } : { level: 'error', message: reading.error },
    }),
};
const target: MonitorTarget = {
    id: 1,
    name: 'Blocks',
    type: 'blockCheck',
    settings: {},
    key: '1',
    configuration: { id: 1, name: 'Hub', chain: 'cosmoshub', companyId: 1 },
    server: { id: 1, name: 'validator-1', address: 'http://127.0.0.1' },
    services: [],
};
const up = (location: string, ms = 12): LocationRead => ({
    location,
    read: { reading: { ok: true, value: 'up' }, source: null, seen: null },
    ms,
});
const down = (location: string, error = 'The node could not be reached'): LocationRead => ({
    location,
    read: { reading: { ok: false, error }, source: null, seen: null },
    ms: 40,
});
const silent = (location: string): LocationRead => ({ location, read: null, ms: null });

const weigh = (
    readings: LocationRead[],
    confirm: number,
    prev: PersistedState = fresh(),
    cut: ReadonlySet<string> = new Set()
) =>
    weighLocations(
        readings,
        confirm,
        (r, memory) =>
            evaluate({ check, target, reading: r.reading, source: r.source, prev: { ...prev, memory }, nowMs: 0 }),
        { memory: prev.memory, failing: prev.alert.status === 'alerting', memories: prev.locationMemory },
        cut
    );
const fresh = (): PersistedState => ({ alert: INITIAL_ALERT_STATE, memory: 7 });

describe('weighing the readings of several locations', () => {
    it('makes a failure seen from fewer than confirm locations a warning naming where it failed', () => {
        const w = weigh([down('fra-1'), up('sgp-1')], 2);
        expect(w.evaluation.verdict).toEqual({
            level: 'warning',
            message: 'The node could not be reached; down from fra-1, up from sgp-1',
        });
        // The memory is the word of the location that sees the node up.
        expect(w.read.reading.ok).toBe(true);
        expect(w.evaluation.memory).toBe(8);
        expect(w.ms).toBe(12);
        expect(w.results).toEqual([
            { location: 'fra-1', level: 'error', message: 'The node could not be reached', latency_ms: 40 },
            { location: 'sgp-1', level: 'ok', message: null, latency_ms: 12 },
        ]);
    });

    it('is Error when confirm locations agree in the slot', () => {
        const w = weigh([down('fra-1', 'refused'), down('sgp-1', 'timed out'), up('local')], 2);
        expect(w.evaluation.verdict).toEqual({
            level: 'error',
            message: 'refused; down from fra-1, sgp-1, up from local',
        });
        expect(w.read.reading).toEqual({ ok: false, error: 'refused' });
    });

    it('with confirm 1, one failing location is Error', () => {
        expect(weigh([down('fra-1'), up('sgp-1')], 1).evaluation.verdict.level).toBe('error');
    });

    it('names a location that did not answer, and does not count it toward confirmation', () => {
        const w = weigh([down('fra-1'), silent('sgp-1')], 2);
        expect(w.evaluation.verdict).toEqual({
            level: 'warning',
            message: 'The node could not be reached; down from fra-1; no answer from sgp-1',
        });
        expect(w.results[1]).toEqual({
            location: 'sgp-1',
            level: 'none',
            message: 'No answer in time',
            latency_ms: null,
        });
    });

    it('stays Ok when every location that answered sees the node up', () => {
        const w = weigh([up('local'), silent('fra-1')], 2);
        expect(w.evaluation.verdict).toEqual({ level: 'ok', message: null });
        expect(w.results.map((r) => r.level)).toEqual(['ok', 'none']);
    });

    it('warns when no location answered, keeping the memory', () => {
        const w = weigh([silent('fra-1'), silent('sgp-1')], 1);
        expect(w.evaluation).toEqual({
            memory: 7,
            verdict: { level: 'warning', message: 'No location answered in time: no answer from fra-1, sgp-1' },
        });
    });
});

describe('weighing beside a probe that lost its own network', () => {
    const cut = new Set(['fra-1']);

    it('counts the cut location neither way: its failure alone is no warning', () => {
        const w = weigh([down('fra-1'), up('sgp-1'), up('local')], 2, fresh(), cut);
        expect(w.evaluation.verdict).toEqual({ level: 'ok', message: null });
        // Its own reading is still shown on the monitor page.
        expect(w.results[0]).toMatchObject({ location: 'fra-1', level: 'error' });
    });

    it('leaves the confirmation of a real failure to the other locations, naming the one left out', () => {
        const w = weigh([down('fra-1', 'refused'), down('sgp-1'), up('local')], 2, fresh(), cut);
        expect(w.evaluation.verdict).toEqual({
            level: 'warning',
            message:
                'The node could not be reached; down from sgp-1, up from local; left out: fra-1 (probe lost its network)',
        });
        const both = weigh([down('fra-1'), down('sgp-1'), down('local')], 2, fresh(), cut);
        expect(both.evaluation.verdict.level).toBe('error');
        expect(both.evaluation.verdict.message).toContain('down from sgp-1, local; left out: fra-1');
    });

    it('warns when only cut locations answered', () => {
        const w = weigh([down('fra-1'), silent('sgp-1')], 1, fresh(), cut);
        expect(w.evaluation.verdict).toEqual({
            level: 'warning',
            message: 'No location left to judge it: no answer from sgp-1; left out: fra-1 (probe lost its network)',
        });
    });

    it('says how each answering location stood beside the others that count', () => {
        expect(weigh([down('fra-1'), up('sgp-1'), silent('local')], 2).sightings).toEqual([
            { location: 'fra-1', sighting: 'alone' },
            { location: 'sgp-1', sighting: 'up' },
        ]);
        expect(weigh([down('fra-1'), up('sgp-1')], 2, fresh(), new Set(['sgp-1'])).sightings).toEqual([
            { location: 'fra-1', sighting: 'unpaired' },
            { location: 'sgp-1', sighting: 'up' },
        ]);
    });
});

describe('judging with confirm across slots', () => {
    const shared = () => {
        const upgradeHolds = new UpgradeHolds();
        return { upgradeHolds, chainHalts: new ChainHalts(upgradeHolds.adjust) };
    };
    it('opens one incident when two locations agree, and recovers when fewer than confirm still fail', () => {
        const facts = shared();
        const groups = new DutyGroups();
        let prev = fresh();
        const step = (readings: LocationRead[], at: number) => {
            const w = weigh(readings, 2, prev);
            const judged = judge({
                check,
                target,
                reading: w.read.reading,
                source: w.read.source,
                prev,
                nowMs: at,
                shared: facts,
                dutyGroups: groups,
                cover: null,
                evaluation: w.evaluation,
            });
            prev = { alert: judged.next.state, memory: judged.memory, locationMemory: w.memories };
            return judged.next;
        };
        const H = 3_600_000;
        expect(step([down('fra-1'), up('sgp-1')], H).state.status).not.toBe('alerting');
        const alert = step([down('fra-1'), down('sgp-1')], 2 * H);
        expect(alert.notification).toMatchObject({
            kind: 'alert',
            message: 'The node could not be reached; down from fra-1, sgp-1',
        });
        expect(step([down('fra-1'), down('sgp-1')], 3 * H).notification?.kind ?? null).not.toBe('alert');
        const recovery = step([down('fra-1'), up('sgp-1')], 4 * H);
        expect(recovery.notification).toMatchObject({
            kind: 'recovery',
            message: 'The node could not be reached; down from fra-1, up from sgp-1',
        });
        expect(recovery.state.status).toBe('normal');
        // Still down from one location: a warning that names it, no second incident.
        const after = step([down('fra-1'), up('sgp-1')], 5 * H);
        expect(after.state.status).toBe('pending');
        expect(after.notification?.kind ?? 'none').not.toBe('alert');
    });
});
