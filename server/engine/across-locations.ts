import type { LocationResult } from '../../common/locations';
import type { Evaluation } from './judge';
import { type Sighting, sightingsOf } from './probe-health';
import { failedRead, type TargetRead } from './read-target';

/** One location's answer to one check: its read, or null when it did not answer in time. */
export interface LocationRead {
    location: string;
    read: TargetRead | null;
    /** How long the read took where it was made; null without an answer. */
    ms: number | null;
}

/** The readings of several locations weighed into one: what the monitor's alert state is advanced with. */
export interface Weighed {
    /** The reading the evaluation stands on (its memory, source, disks and chart value come from it). */
    read: TargetRead;
    evaluation: Evaluation;
    ms: number | null;
    /** Each location's own result, for the monitor page. */
    results: Omit<LocationResult, 'checked_at'>[];
    /** Each location's memory after this slot (a silent location keeps its last). */
    memories: Record<string, unknown>;
    /** How each answering location's reading stood beside the others' (probe-health.ts), for the probes' watch. */
    sightings: { location: string; sighting: Sighting }[];
}

const names = (list: { location: string }[]) => list.map((l) => l.location).join(', ');

/**
 * Weighs one slot's readings from several locations, so one network's failure alone does not page. Each location is judged as if it were the only
 * one, on its own memory (a node's misses are counted per location; a location new to the monitor starts from the
 * monitor's memory). A failure is Error only when at least `confirm` locations see it, else a Warning naming
 * where it failed ("down from fra-1, up from sgp-1", after the check's own message); a location that did not
 * answer is named ("no answer from fra-1") and counts neither way; a monitor in Error recovers once fewer than
 * `confirm` fail. `readings` come in order of preference: the monitor's memory is taken from the first location
 * that agrees with the outcome. A location in `cut` (its probe lost its own network, probe-health.ts) is read and
 * shown but, like a silent one, counts neither way, and is named beside a message there already is.
 */
export function weighLocations(
    readings: LocationRead[],
    confirm: number,
    evaluateRead: (read: TargetRead, memory: unknown) => Evaluation,
    prev: { memory: unknown; failing: boolean; memories?: Record<string, unknown> },
    cut: ReadonlySet<string> = new Set()
): Weighed {
    const memoryOf = (location: string) =>
        prev.memories && location in prev.memories ? prev.memories[location] : prev.memory;
    const heard = readings.flatMap((r) =>
        r.read ? [{ ...r, read: r.read, evaluation: evaluateRead(r.read, memoryOf(r.location)) }] : []
    );
    const sightings = sightingsOf(
        heard.map((a) => ({ location: a.location, down: a.evaluation.verdict.level === 'error' })),
        cut
    );
    const answered = heard.filter((a) => !cut.has(a.location));
    const leftOut = heard.filter((a) => cut.has(a.location));
    const memories: Record<string, unknown> = {};
    for (const r of readings) {
        const a = heard.find((x) => x.location === r.location);
        memories[r.location] = a ? a.evaluation.memory : memoryOf(r.location);
    }
    const silent = readings.filter((r) => !r.read);
    const down = answered.filter((a) => a.evaluation.verdict.level === 'error');
    const up = answered.filter((a) => a.evaluation.verdict.level !== 'error');
    const results = readings.map((r) => {
        const a = heard.find((x) => x.location === r.location);
        return a
            ? {
                  location: r.location,
                  level: a.evaluation.verdict.level,
                  message: a.evaluation.verdict.message,
                  latency_ms: a.ms === null ? null : Math.round(a.ms * 10) / 10,
              }
            : { location: r.location, level: 'none' as const, message: 'No answer in time', latency_ms: null };
    });
    const where = [
        down.length ? `down from ${names(down)}` : '',
        down.length && up.length ? `up from ${names(up)}` : '',
    ]
        .filter(Boolean)
        .join(', ');
    const unheard = silent.length ? `no answer from ${names(silent)}` : '';
    const cutOff = leftOut.length ? `left out: ${names(leftOut)} (probe lost its network)` : '';
    const suffix = [where, unheard, cutOff].filter(Boolean).join('; ');
    const withSuffix = (message: string | null) => (suffix ? (message ? `${message}; ${suffix}` : suffix) : message);
    const first = down[0];
    if (first && down.length >= confirm) {
        const { evaluation } = first;
        return {
            read: first.read,
            ms: first.ms,
            evaluation: { ...evaluation, verdict: { level: 'error', message: withSuffix(evaluation.verdict.message) } },
            results,
            memories,
            sightings,
        };
    }
    const base = up[0] ?? first;
    if (!base) {
        const message = leftOut.length
            ? `No location left to judge it: ${[unheard, cutOff].filter(Boolean).join('; ')}`
            : `No location answered in time: ${unheard}`;
        return {
            read: failedRead(message),
            ms: null,
            evaluation: { memory: prev.memory, verdict: { level: 'warning', message } },
            results,
            memories,
            sightings,
        };
    }
    // Seen down from too few locations to confirm: a warning that says where, on the word (and memory) of a
    // location that sees it up when one does; for a monitor in Error, its recovery (a warning alone would keep
    // the incident open, transitions.ts), saying where it still fails. Seen up everywhere that answered: that location's own verdict, and
    // a silent location is named only beside a message there already is (an Ok stays Ok).
    const own = base.evaluation.verdict;
    const verdict = first
        ? {
              level: prev.failing ? ('ok' as const) : ('warning' as const),
              message: withSuffix(first.evaluation.verdict.message),
          }
        : { level: own.level, message: own.level === 'ok' ? own.message : withSuffix(own.message) };
    return { read: base.read, ms: base.ms, evaluation: { ...base.evaluation, verdict }, results, memories, sightings };
}
