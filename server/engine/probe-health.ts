/**
 * Telling a probe's own trouble apart from its targets' (probes.ts). A location that sees most of its targets fail
 * while the other locations see them up has lost its own network: its operators are told once per company, and its
 * readings count toward no confirmation until it reads well again. A location whose probe stopped reporting (its
 * liveness key expired) is named once to the companies that check from it or name it. Pure: the cluster-wide
 * watcher (probe-watch.ts) feeds it what Redis and the database hold.
 */

/**
 * How one location's reading of a monitor stood beside the other locations' readings of the same slot:
 * `alone` it failed and every other location that counts saw it up; `shared` it failed and another did too; `up` it
 * did not fail; `unpaired` no other location that counts answered, so it says nothing of the probe.
 */
export type Sighting = 'alone' | 'shared' | 'up' | 'unpaired';

/** Each answering location's sighting, compared with the answering locations that are not cut off themselves. */
export function sightingsOf(
    answered: { location: string; down: boolean }[],
    cut: ReadonlySet<string>
): { location: string; sighting: Sighting }[] {
    return answered.map(({ location, down }) => {
        const others = answered.filter((o) => o.location !== location && !cut.has(o.location));
        const sighting: Sighting =
            others.length === 0 ? 'unpaired' : !down ? 'up' : others.every((o) => !o.down) ? 'alone' : 'shared';
        return { location, sighting };
    });
}

/** A location's fresh sightings counted: `compared` are those with another location beside it. */
export interface Tally {
    alone: number;
    up: number;
    compared: number;
}

export const EMPTY_TALLY: Tally = { alone: 0, up: 0, compared: 0 };

export function addSighting(t: Tally, s: Sighting): Tally {
    if (s === 'unpaired') return t;
    return {
        alone: t.alone + Number(s === 'alone'),
        up: t.up + Number(s === 'up'),
        compared: t.compared + 1,
    };
}

/**
 * One target failing from one place is that target's (or a route's) problem; a probe's network is at fault only
 * when it fails alone on more than half of at least two targets it shares with another location over the last
 * interval or two (sightings are kept that long). It is back once it sees more than half of them up: a target down
 * everywhere (a halted chain) is no evidence either way, so a cut probe stays left out while everything is down
 * rather than counting its failures toward confirmation.
 */
export const MIN_COMPARED = 2;

export function isCut(t: Tally, wasCut: boolean): boolean {
    if (wasCut) return !(t.compared > 0 && t.up * 2 > t.compared);
    return t.compared >= MIN_COMPARED && t.alone * 2 > t.compared;
}

/** What the watcher knows of one location at one look. */
export interface LocationView {
    location: string;
    /** Its probe's liveness key is there. */
    live: boolean;
    /** Its fresh sightings, per company whose monitors they are. */
    byCompany: ReadonlyMap<number, Tally>;
    /** The companies whose monitors check from it lately or name it. */
    users: ReadonlySet<number>;
}

/** A company's share of a cut: of its targets compared from the location, how many failed from it only. */
export interface CompanyCounts {
    failing: number;
    checked: number;
}

/** A change to tell: a location cut off, back, silent or reporting again. */
export type ProbeChange =
    | { kind: 'probe-cut'; location: string; companies: Map<number, CompanyCounts> }
    | { kind: 'probe-back'; location: string }
    | { kind: 'probe-silent'; location: string; companies: number[] }
    | { kind: 'probe-reporting'; location: string };

/**
 * The changes since the last look, given the locations told cut off or silent and not yet told back:
 *
 *   live, not cut, isCut(all its companies' sightings)  → probe-cut, to each company with a target failing from it only
 *   cut, live, no longer isCut                           → probe-back, to those told it was cut
 *   not live, not silent, someone checks from it or names it → probe-silent, to those companies
 *   silent, live again                                   → probe-reporting, to those told it was silent
 *
 * A location nobody names and nobody checks from is not reported; one cut off and then silent stays cut off (no
 * fresh sightings say otherwise) until it reads well again.
 */
export function probeChanges(
    views: readonly LocationView[],
    open: { cut: ReadonlySet<string>; silent: ReadonlySet<string> }
): ProbeChange[] {
    const changes: ProbeChange[] = [];
    for (const v of views) {
        const total = [...v.byCompany.values()].reduce(
            (a, t) => ({ alone: a.alone + t.alone, up: a.up + t.up, compared: a.compared + t.compared }),
            EMPTY_TALLY
        );
        const wasCut = open.cut.has(v.location);
        if (v.live && !wasCut && isCut(total, false)) {
            const companies = new Map<number, CompanyCounts>();
            for (const [id, t] of v.byCompany)
                if (t.alone > 0) companies.set(id, { failing: t.alone, checked: t.compared });
            changes.push({ kind: 'probe-cut', location: v.location, companies });
        } else if (v.live && wasCut && !isCut(total, true)) {
            changes.push({ kind: 'probe-back', location: v.location });
        }
        const wasSilent = open.silent.has(v.location);
        if (!v.live && !wasSilent && v.users.size > 0) {
            changes.push({ kind: 'probe-silent', location: v.location, companies: [...v.users].sort((a, b) => a - b) });
        } else if (v.live && wasSilent) {
            changes.push({ kind: 'probe-reporting', location: v.location });
        }
    }
    return changes;
}
