import { LOCATION_NAME, type LocationResult } from '../../common/locations';

const LEVEL_VALUE = { ok: 0, warning: 1, error: 2 } as const;

/** Families of a monitor checked from several locations, one series per location, beside the per-monitor ones. */
const FAMILIES = [
    [
        'node_monitor_location_state',
        'Health of the monitor as the location saw it at the latest check: 0 ok, 1 warning, 2 error; absent when the location did not answer.',
    ],
    [
        'node_monitor_location_answered',
        'Whether the location answered the latest check of the monitor in time: 1 yes, 0 no.',
    ],
    [
        'node_monitor_location_check_duration_seconds',
        'How long the latest check of the monitor took from the location, in seconds.',
    ],
] as const;

/** The saved per-location results as they came out of the state row's JSON; anything else is skipped. */
function resultsOf(saved: unknown): Pick<LocationResult, 'location' | 'level' | 'latency_ms'>[] {
    if (!Array.isArray(saved)) return [];
    return saved.filter(
        (r): r is LocationResult =>
            typeof r === 'object' &&
            r !== null &&
            typeof r.location === 'string' &&
            // A name as locations are given: nothing a label value would have to escape.
            LOCATION_NAME.test(r.location) &&
            ['ok', 'warning', 'error', 'none'].includes(r.level)
    );
}

/**
 * The per-location lines of a page, from the results the workers saved with each monitor's state (a monitor checked
 * from one place has none). The families appear only when some monitor has a location, so a page of the embedded
 * profile is as before.
 */
export class LocationLines {
    private readonly lines: string[][] = FAMILIES.map(() => []);

    /** `labels`: the monitor's label pairs, without braces; each series adds its `location`. */
    add(labels: string, saved: unknown): void {
        for (const r of resultsOf(saved)) {
            const at = `{${labels},location="${r.location}"}`;
            const answered = r.level !== 'none';
            if (r.level !== 'none') this.lines[0]?.push(`${FAMILIES[0][0]}${at} ${LEVEL_VALUE[r.level]}`);
            this.lines[1]?.push(`${FAMILIES[1][0]}${at} ${answered ? 1 : 0}`);
            if (answered && typeof r.latency_ms === 'number')
                this.lines[2]?.push(`${FAMILIES[2][0]}${at} ${r.latency_ms / 1000}`);
        }
    }

    render(): string {
        if (this.lines.every((family) => family.length === 0)) return '';
        return FAMILIES.map(
            ([name, help], i) =>
                `# HELP ${name} ${help}\n# TYPE ${name} gauge\n${(this.lines[i] ?? []).map((l) => `${l}\n`).join('')}`
        ).join('');
    }
}
