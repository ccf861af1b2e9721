import { fetchNodeExporter, type FilesystemUsage } from '../../clients/node-exporter';
import type { Check, Verdict } from '../check';
import { alertSleepFor, errorText, numberSetting, requireService, sleepIntervalFor } from './common';

/**
 * nodeExporterDiskSpace: use of each real filesystem (pseudo filesystems excluded, bind mounts once) against
 * `threshold` %. Any filesystem at or above it → Error naming it. The exporter failing once → Warning,
 * EXPORTER_FAILURE_LIMIT times in a row → Error (the disk cannot be watched any more).
 */

export const EXPORTER_FAILURE_LIMIT = 3;

export interface DiskMeasurement {
    filesystems: Pick<
        FilesystemUsage,
        'mountpoint' | 'device' | 'fstype' | 'usedPercent' | 'sizeBytes' | 'availBytes'
    >[];
}

export interface DiskMemory {
    failures: number;
}

const pct = (n: number) => `${(Math.floor(n * 10) / 10).toFixed(1)}%`;

export const nodeExporterDiskSpaceCheck: Check<DiskMeasurement, DiskMemory> = {
    intervalSeconds: sleepIntervalFor('nodeExporterDiskSpace', 'check_interval_seconds'),
    alertSleepMinutes: alertSleepFor('nodeExporterDiskSpace'),

    async read(ctx) {
        const url = requireService(ctx, 'node_exporter');
        let filesystems: FilesystemUsage[];
        try {
            filesystems = (await fetchNodeExporter(ctx.http, url, ctx.signal)).filesystems;
        } catch (err) {
            throw new Error(errorText(err));
        }
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

    evaluate(memory, reading, settings) {
        if (!reading.ok) {
            const failures = (memory?.failures ?? 0) + 1;
            const verdict: Verdict =
                failures >= EXPORTER_FAILURE_LIMIT
                    ? { level: 'error', message: `${reading.error} (${failures} checks in a row failed)` }
                    : { level: 'warning', message: reading.error };
            return { memory: { failures }, verdict };
        }
        const threshold = numberSetting('nodeExporterDiskSpace', settings, 'threshold');
        const full = reading.value.filesystems.filter((f) => f.usedPercent >= threshold);
        if (full.length === 0) return { memory: { failures: 0 }, verdict: { level: 'ok', message: null } };
        const list = full.map((f) => `${f.mountpoint} is ${pct(f.usedPercent)} full`).join(', ');
        return { memory: { failures: 0 }, verdict: { level: 'error', message: `${list} (threshold ${threshold}%)` } };
    },
};
