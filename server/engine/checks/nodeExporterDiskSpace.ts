import { fetchNodeExporter, type FilesystemUsage } from '../../clients/node-exporter';
import { daysUntilFull, PROJECTION_WINDOW_MS } from '../../history/projection';
import type { Check } from '../check';
import type { Verdict } from '../verdict';
import {
    alertSleepFor,
    type HoldState,
    judgedHold,
    numberSetting,
    readFailureVerdict,
    requireService,
    sleepIntervalFor,
} from './common';

/**
 * nodeExporterDiskSpace: use of each real filesystem (pseudo filesystems excluded, bind mounts once) against
 * `threshold` %. Any filesystem at or above it → Error naming it. The exporter failing once → Warning,
 * READ_FAILURE_LIMIT times in a row → Error (the disk cannot be watched any more); while the last reading was
 * Error (a full disk), a failed scrape keeps it Error: one unreadable poll is not a recovery.
 */

export interface DiskMeasurement {
    filesystems: Pick<
        FilesystemUsage,
        'mountpoint' | 'device' | 'fstype' | 'usedPercent' | 'sizeBytes' | 'availBytes'
    >[];
}

/** Used % samples per mountpoint ([ms, percent]) over the last 7 days, for the days-until-full projection. */
export interface DiskMemory extends HoldState {
    growth?: Record<string, [number, number][]>;
}

/**
 * Samples are at least 10 s apart, and further as the series grows (a 150th of its span), so a week is about
 * 150 evenly spread samples; more than MAX_SAMPLES are thinned.
 */
const SAMPLE_SPACING_MS = 10_000;
/** The warning waits for an hour of samples: minutes of a disk's use project noise, not a date. */
const WARN_MIN_SPAN_MS = 3_600_000;
const SAMPLES_PER_SPAN = 150;
const MAX_SAMPLES = 200;

/** The samples with this reading added: bounded in count and age, so the persisted memory stays a few kB. */
export function addGrowthSamples(
    growth: DiskMemory['growth'],
    filesystems: DiskMeasurement['filesystems'],
    nowMs: number
): Record<string, [number, number][]> {
    const next: Record<string, [number, number][]> = {};
    for (const f of filesystems) {
        let samples = (growth?.[f.mountpoint] ?? []).filter(([t]) => t >= nowMs - PROJECTION_WINDOW_MS && t <= nowMs);
        const last = samples[samples.length - 1];
        const spacing = Math.max(SAMPLE_SPACING_MS, (nowMs - (samples[0]?.[0] ?? nowMs)) / SAMPLES_PER_SPAN);
        if (!last || nowMs - last[0] >= spacing) samples = [...samples, [nowMs, f.usedPercent]];
        if (samples.length > MAX_SAMPLES) samples = samples.filter((_, i) => i % 2 === 1 || i === samples.length - 1);
        next[f.mountpoint] = samples;
    }
    return next;
}

const pct = (n: number) => `${(Math.floor(n * 10) / 10).toFixed(1)}%`;

export const nodeExporterDiskSpaceCheck: Check<DiskMeasurement, DiskMemory> = {
    intervalSeconds: sleepIntervalFor('nodeExporterDiskSpace', 'check_interval_seconds'),
    alertSleepMinutes: alertSleepFor('nodeExporterDiskSpace'),
    /** The fullest disk's used %. */
    readingValue(reading) {
        if (!reading.ok) return null;
        const used = reading.value.filesystems.map((f) => f.usedPercent);
        return used.length ? Math.max(...used) : null;
    },
    disks: (reading) => (reading.ok ? reading.value.filesystems : null),

    async read(ctx) {
        const url = requireService(ctx, 'node_exporter');
        const { filesystems } = await fetchNodeExporter(ctx.http, url, ctx.signal);
        if (filesystems.length === 0) {
            throw new Error(
                `node_exporter service ${url} reports no real filesystem (only pseudo filesystems or failed ones)`
            );
        }
        return {
            filesystems: filesystems.map(({ mountpoint, device, fstype, usedPercent, sizeBytes, availBytes }) => ({
                mountpoint,
                device,
                fstype,
                usedPercent,
                sizeBytes,
                availBytes,
            })),
        };
    },

    evaluate(memory, reading, settings, nowMs) {
        if (!reading.ok) {
            const { hold, verdict } = readFailureVerdict(memory, reading.error);
            return { memory: { ...hold, growth: memory?.growth }, verdict };
        }
        const growth = addGrowthSamples(memory?.growth, reading.value.filesystems, nowMs);
        const threshold = numberSetting('nodeExporterDiskSpace', settings, 'threshold');
        const full = reading.value.filesystems.filter((f) => f.usedPercent >= threshold);
        const list = full.map((f) => `${f.mountpoint} is ${pct(f.usedPercent)} full`).join(', ');
        const verdict: Verdict =
            full.length === 0
                ? (projectionVerdict(reading.value, growth, settings) ?? { level: 'ok', message: null })
                : { level: 'error', message: `${list} (threshold ${threshold}%)` };
        return { memory: { ...judgedHold(verdict), growth }, verdict };
    },
};

/** Warning when a filesystem would be full within `days_until_full_threshold` days at its last 7 days' growth. */
function projectionVerdict(
    m: DiskMeasurement,
    growth: Record<string, [number, number][]>,
    settings: Record<string, unknown>
): Verdict | null {
    const raw = settings.days_until_full_threshold;
    const limit =
        typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
    if (!Number.isFinite(limit) || limit <= 0) return null;
    const soon = m.filesystems.flatMap((f) => {
        const days = daysUntilFull(
            (growth[f.mountpoint] ?? []).map(([t, usedPercent]) => ({ t, usedPercent })),
            WARN_MIN_SPAN_MS
        );
        return days !== null && days < limit
            ? [`${f.mountpoint} (${pct(f.usedPercent)}) would be full in ${days.toFixed(1)} days`]
            : [];
    });
    if (soon.length === 0) return null;
    return {
        level: 'warning',
        message: `${soon.join(', ')} at the last 7 days' growth (days until full threshold ${limit})`,
    };
}
