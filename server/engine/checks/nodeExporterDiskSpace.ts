import { fetchNodeExporter, type FilesystemUsage } from '../../clients/node-exporter';
import type { Check, Verdict } from '../check';
import {
    alertSleepFor,
    errorText,
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

export type DiskMemory = HoldState;

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
            const { hold, verdict } = readFailureVerdict(memory, reading.error);
            return { memory: hold, verdict };
        }
        const threshold = numberSetting('nodeExporterDiskSpace', settings, 'threshold');
        const full = reading.value.filesystems.filter((f) => f.usedPercent >= threshold);
        const list = full.map((f) => `${f.mountpoint} is ${pct(f.usedPercent)} full`).join(', ');
        const verdict: Verdict =
            full.length === 0
                ? { level: 'ok', message: null }
                : { level: 'error', message: `${list} (threshold ${threshold}%)` };
        return { memory: judgedHold(verdict), verdict };
    },
};
