import { fromBech32 } from '@cosmjs/encoding';
import { z } from 'zod';
import { isValoperPrefix } from './bech32-prefixes';
import type { ServiceType } from './service-types';

/**
 * The monitor-type catalogue: one list of wire names, and for each type the settings stored in
 * `configuration_object` with their defaults (docs/spec.md §3), bounds and helper texts. The API validates
 * against it, the UI builds its forms from it and the engine reads its intervals from it.
 */
export const MONITOR_TYPES = [
    'urlCheck',
    'blockCheck',
    'signMissCheck',
    'priceFeederMissCount',
    'nodeExporterDiskSpace',
    'validatorOutOfActiveSet',
    'slashingWindow',
    'governanceVote',
    'upgradeWatch',
] as const;
export type MonitorType = (typeof MONITOR_TYPES)[number];

/**
 * What a type answers. `node`: is this node well (it reads its own server's services). `duty`: is the validator doing
 * its job (it reads the chain, through any fresh source of the configuration's chain). A node's maintenance window
 * holds only `node` alerts: a validator jailed while its node restarts must still page.
 */
export type MonitorRole = 'node' | 'duty';

export const HELPER_TEXTS = {
    threshold: 'The percentage to alert on',
    alert_sleep_duration_minutes: 'Minutes between alerts',
    check_interval_seconds: 'Seconds between checks',
    miss_tolerance: 'The number of blocks that may be missed before alerting',
    miss_tolerance_period_seconds: 'The seconds without a miss after which the counter resets',
    sleep_duration_seconds: 'Seconds between checks',
    warning_percent: 'Warning when this share of the jail budget (missed blocks allowed in the window) is used',
    error_percent: 'Error when this share of the jail budget is used',
    warning_hours_before_end: 'Warning when a proposal the validator has not voted on ends within this many hours',
    error_hours_before_end: 'Error when a proposal the validator has not voted on ends within this many hours',
    rank_warning_margin:
        'Warning when the validator ranks within this many seats of max_validators (default 5; 0 turns it off)',
    days_until_full_threshold:
        'Warning when a disk, growing as over the last 7 days, would be full within this many days (empty: off)',
    grace_minutes:
        "Minutes the block alerts of this configuration's nodes are held when the chain stops at the upgrade height",
} as const;

export interface SettingField {
    key: string;
    label: string;
    kind: 'number' | 'text';
    required: boolean;
    default?: number | string;
    min?: number;
    max?: number;
    /** A number setting that may have decimals (a percentage); the others are whole numbers. */
    decimals?: boolean;
    helperText?: string;
    /** Filled in from the monitor's own name, so the form shows no field for it (urlCheck's `name`, docs/spec.md §9). */
    fromMonitorName?: boolean;
    /** A line the form shows under the helper text, from the type's settings as they stand; null for none. */
    hint?: (settings: Record<string, unknown>) => string | null;
}

const num = (
    key: keyof typeof HELPER_TEXTS | 'allowed_attempts',
    label: string,
    def: number,
    min: number,
    max: number
) =>
    ({
        key,
        label,
        kind: 'number',
        required: true,
        default: def,
        min,
        max,
        helperText: key in HELPER_TEXTS ? HELPER_TEXTS[key as keyof typeof HELPER_TEXTS] : undefined,
    }) satisfies SettingField;

const text = (key: string, label: string, required: boolean, helperText?: string): SettingField => ({
    key,
    label,
    kind: 'text',
    required,
    helperText,
});

const DAY = 86_400;
const alertSleep = (def: number) =>
    num('alert_sleep_duration_minutes', 'Alert Sleep Duration (minutes)', def, 1, 7 * 24 * 60);
const sleep = (def: number) => num('sleep_duration_seconds', 'Sleep Duration (seconds)', def, 1, DAY);
const missTolerance = (def: number) => num('miss_tolerance', 'Miss Tolerance', def, 1, 1_000_000);
const missPeriod = (def: number) =>
    num('miss_tolerance_period_seconds', 'Miss Tolerance Period (seconds)', def, 1, 30 * DAY);
const valoper = text(
    'valoper_address',
    'Validator Operator Address',
    true,
    'The bech32 valoper address of the validator'
);

const SLEEP = 'sleep_duration_seconds';

/** blockCheck's tolerance counts polls, not blocks: the form says what stall time it amounts to. */
function blockStallHint(settings: Record<string, unknown>): string | null {
    const polls = Number(settings.miss_tolerance);
    const every = Number(settings.sleep_duration_seconds);
    return polls > 0 && every > 0 ? blockStallText(polls, every) : null;
}

/** One monitor type: everything the API, the UI and the engine know of it beside its check. */
export interface MonitorTypeEntry {
    label: string;
    role: MonitorRole;
    settings: SettingField[];
    /**
     * The service types its check reads through; any one of them enabled on the server is enough. A type that reads
     * one needs a server; none (urlCheck) requests its own address.
     */
    reads: readonly ServiceType[];
    /** The setting that holds its interval, which the company's minimum applies to; none: every 60 s (urlCheck). */
    intervalSetting?: 'sleep_duration_seconds' | 'check_interval_seconds';
    /** The one number its history chart shows (the check's `readingValue`); none: no reading chart. */
    reading?: { label: string /** The chart's fixed top, for a share. */; max?: number };
}

/** The catalogue: a Record over the closed list, so a type without an entry does not compile. */
export const MONITOR_CATALOGUE: Record<MonitorType, MonitorTypeEntry> = {
    urlCheck: {
        label: 'URL Check',
        role: 'node',
        settings: [
            { ...text('name', 'Name', false), fromMonitorName: true },
            text('address', 'Address', true, 'The URL to request'),
            num('allowed_attempts', 'Allowed Attempts', 3, 0, 100),
        ],
        reads: [],
    },
    blockCheck: {
        label: 'Block Check',
        role: 'node',
        settings: [{ ...missTolerance(10), hint: blockStallHint }, missPeriod(30), sleep(10), alertSleep(10)],
        reads: ['rpc', 'rest'],
        intervalSetting: SLEEP,
        reading: { label: 'Block height' },
    },
    signMissCheck: {
        label: 'Sign Miss Check',
        role: 'duty',
        settings: [missTolerance(10), missPeriod(100), sleep(5), alertSleep(1), valoper],
        reads: ['rest'],
        intervalSetting: SLEEP,
        reading: { label: 'Missed signatures' },
    },
    priceFeederMissCount: {
        label: 'Price Feeder Miss Count',
        role: 'duty',
        settings: [
            missTolerance(100),
            missPeriod(3600),
            sleep(5),
            alertSleep(60),
            valoper,
            text(
                'oracle_path',
                'Oracle Miss Path',
                false,
                'Only for chains without a built-in path, e.g. /nibiru/oracle/v1beta1/validators/{valoper}/miss'
            ),
        ],
        reads: ['rest'],
        intervalSetting: SLEEP,
        reading: { label: 'Oracle misses' },
    },
    nodeExporterDiskSpace: {
        label: 'Node Exporter Disk Space',
        role: 'node',
        settings: [
            // 0 is what the original's form starts from (docs/spec.md §5), so it is accepted; it makes every disk alert.
            { ...num('threshold', 'Threshold (%)', 80, 0, 100), decimals: true },
            alertSleep(30),
            num('check_interval_seconds', 'Check Interval (seconds)', 60, 5, DAY),
            // Optional and without a default: monitors saved before it keep exactly the spec's settings.
            {
                key: 'days_until_full_threshold',
                label: 'Days Until Full Threshold',
                kind: 'number',
                required: false,
                min: 0,
                max: 3650,
                decimals: true,
                helperText: HELPER_TEXTS.days_until_full_threshold,
            },
        ],
        reads: ['node_exporter'],
        intervalSetting: 'check_interval_seconds',
        reading: { label: 'Disk used (%)', max: 100 },
    },
    validatorOutOfActiveSet: {
        label: 'Validator Out Of Active Set',
        role: 'duty',
        settings: [
            alertSleep(60),
            sleep(60),
            valoper,
            // Optional, without a catalogue default, so monitors saved before it keep exactly the spec's settings.
            {
                key: 'rank_warning_margin',
                label: 'Rank Warning Margin (seats)',
                kind: 'number',
                required: false,
                min: 0,
                max: 1000,
                helperText: HELPER_TEXTS.rank_warning_margin,
            },
        ],
        reads: ['rest'],
        intervalSetting: SLEEP,
        reading: { label: 'Validator rank' },
    },
    slashingWindow: {
        label: 'Slashing Window (Jail Budget)',
        role: 'duty',
        settings: [
            valoper,
            { ...num('warning_percent', 'Warning (% of jail budget)', 25, 0, 100), decimals: true },
            { ...num('error_percent', 'Error (% of jail budget)', 50, 0, 100), decimals: true },
            sleep(30),
            alertSleep(30),
        ],
        reads: ['rest'],
        intervalSetting: SLEEP,
        reading: { label: 'Missed blocks in the window' },
    },
    governanceVote: {
        label: 'Governance Vote',
        role: 'duty',
        settings: [
            valoper,
            num('warning_hours_before_end', 'Warning Hours Before End', 72, 0, 90 * 24),
            num('error_hours_before_end', 'Error Hours Before End', 24, 0, 90 * 24),
            sleep(300),
            alertSleep(360),
        ],
        reads: ['rest'],
        intervalSetting: SLEEP,
    },
    upgradeWatch: {
        label: 'Upgrade Watch',
        role: 'duty',
        settings: [sleep(60), alertSleep(30), num('grace_minutes', 'Grace (minutes)', 30, 1, 24 * 60)],
        reads: ['rest'],
        intervalSetting: SLEEP,
    },
};

/** Types whose check reads one of its server's services; a server is required for them. */
export const needsServer = (type: MonitorType): boolean => MONITOR_CATALOGUE[type].reads.length > 0;

/**
 * What blockCheck's miss_tolerance amounts to: it counts polls without a new block, so the alert comes after about
 * tolerance × sleep_duration_seconds of a stalled node. "2 polls × 5 s = alert after ~10 s without a new block".
 */
export function blockStallText(tolerance: number, sleepSeconds: number): string {
    const polls = `${tolerance} ${tolerance === 1 ? 'poll' : 'polls'}`;
    const total = tolerance * sleepSeconds;
    const after =
        total < 120 ? `${total} s` : total < 7200 ? `${Math.round(total / 60)} min` : `${(total / 3600).toFixed(1)} h`;
    return `Counts polls without a new block: ${polls} × ${sleepSeconds} s = alert after ~${after} without a new block`;
}

export function defaultSettings(type: MonitorType): Record<string, number | string> {
    const out: Record<string, number | string> = {};
    for (const f of MONITOR_CATALOGUE[type].settings) if (f.default !== undefined) out[f.key] = f.default;
    return out;
}

export function isValoperAddress(value: string): boolean {
    try {
        // cosmjs 0.39 throws on its default (unbounded) length limit, so a limit must be given.
        const { prefix, data } = fromBech32(value, 256);
        return isValoperPrefix(prefix) && (data.length === 20 || data.length === 32);
    } catch {
        return false;
    }
}

function isHttpUrl(value: string): boolean {
    try {
        const u = new URL(value);
        return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
        return false;
    }
}

function fieldSchema(f: SettingField): z.ZodType {
    if (f.kind === 'number') {
        let n = z.coerce.number({ error: `${f.label} must be a number` });
        if (!f.decimals) n = n.int(`${f.label} must be a whole number`);
        if (f.min !== undefined) n = n.min(f.min, `${f.label} must be at least ${f.min}`);
        if (f.max !== undefined) n = n.max(f.max, `${f.label} must be at most ${f.max}`);
        if (f.default !== undefined) return n.default(f.default as number);
        // An optional number left empty in the form is no setting (the check uses its own default).
        return f.required ? n : z.preprocess((v) => (v === '' || v === null ? undefined : v), n.optional());
    }
    let s: z.ZodType = z.string({ error: `${f.label} is required` }).trim();
    if (f.key === 'valoper_address') {
        s = (s as z.ZodString).refine(isValoperAddress, `${f.label} must be a bech32 valoper address`);
    } else if (f.key === 'address') {
        s = (s as z.ZodString).refine(isHttpUrl, `${f.label} must be an http(s) URL`);
    } else if (f.key === 'oracle_path') {
        s = (s as z.ZodString).regex(/^\/[^\s]*\{valoper\}[^\s]*$/, `${f.label} must be a path containing {valoper}`);
    } else if (f.required) {
        s = (s as z.ZodString).min(1, `${f.label} is required`);
    }
    return f.required ? s : s.optional().or(z.literal('').transform(() => undefined));
}

const schemas = Object.fromEntries(
    MONITOR_TYPES.map((t) => [
        t,
        z.strictObject(Object.fromEntries(MONITOR_CATALOGUE[t].settings.map((f) => [f.key, fieldSchema(f)]))),
    ])
) as unknown as Record<MonitorType, z.ZodType<Record<string, unknown>>>;

export type SettingsResult =
    | { ok: true; settings: Record<string, unknown> }
    | { ok: false; errors: Record<string, string> };

/** Parses a monitor's `configuration_object` JSON text for its type, filling defaults; errors are keyed by setting. */
export function parseMonitorSettings(type: MonitorType, json: string | null | undefined): SettingsResult {
    let raw: unknown = {};
    if (json !== null && json !== undefined && json.trim() !== '') {
        try {
            raw = JSON.parse(json);
        } catch {
            return { ok: false, errors: { configuration_object: 'configuration_object must be valid JSON' } };
        }
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
        return { ok: false, errors: { configuration_object: 'configuration_object must be a JSON object' } };
    }
    const parsed = schemas[type].safeParse(raw);
    if (parsed.success) return { ok: true, settings: parsed.data };
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
        const key =
            issue.code === 'unrecognized_keys'
                ? issue.keys.join(', ')
                : String(issue.path[0] ?? 'configuration_object');
        errors[key] ??= issue.code === 'unrecognized_keys' ? `Unknown setting for ${type}` : issue.message;
    }
    return { ok: false, errors };
}
