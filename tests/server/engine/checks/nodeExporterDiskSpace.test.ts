import {
    type DiskMeasurement,
    nodeExporterDiskSpaceCheck,
} from '../../../../server/engine/checks/nodeExporterDiskSpace';
import { fixture, routes, startLoopback } from '../../check-support';
import { fail, makeCtx, okv, run } from './ctx';

const fs = (...pcts: [string, number][]) =>
    okv<DiskMeasurement>({
        filesystems: pcts.map(([mountpoint, usedPercent]) => ({
            mountpoint,
            usedPercent,
            device: mountpoint,
            fstype: 'ext4',
            sizeBytes: 100,
            availBytes: 100 - usedPercent,
        })),
    });
const levels = (...readings: ReturnType<typeof fs | typeof fail>[]) =>
    run(
        nodeExporterDiskSpaceCheck,
        { threshold: 80 },
        readings.map((reading, i) => ({ at: i * 60_000, reading }))
    );

describe('nodeExporterDiskSpace evaluate', () => {
    it.each([
        ['healthy', [fs(['/', 50])], ['ok']],
        ['at the threshold', [fs(['/', 80])], ['error']],
        ['exporter fails once, then recovers', [fail('x'), fs(['/', 10])], ['warning', 'ok']],
        ['exporter unreachable 3 times in a row', [fail('x'), fail('x'), fail('x')], ['warning', 'warning', 'error']],
        // One unreadable scrape is no recovery: a full disk stays Error, not Warning.
        ['full, then the exporter fails once', [fs(['/', 95]), fail('x'), fs(['/', 95])], ['error', 'error', 'error']],
    ] as const)('%s', (_name, readings, expected) => {
        expect(levels(...readings).map((v) => v.level)).toEqual(expected);
    });

    it('names every full mountpoint and its %', () => {
        expect(levels(fs(['/var/lib/cosmos', 91.26], ['/', 85], ['/boot', 10]))[0]?.message).toBe(
            '/var/lib/cosmos is 91.2% full, / is 85.0% full (threshold 80%)'
        );
    });
});

describe('nodeExporterDiskSpace days_until_full_threshold', () => {
    const HOUR = 3_600_000;
    // 1 % an hour from 50 %: full in 50 h, about 2.1 days.
    const filling = (hours: number) =>
        Array.from({ length: hours + 1 }, (_, h) => ({ at: h * HOUR, reading: fs(['/data', 50 + h], ['/', 30]) }));

    it('warns when the projection falls below the threshold, naming the disk and the days', () => {
        const out = run(nodeExporterDiskSpaceCheck, { threshold: 90, days_until_full_threshold: 3 }, filling(6));
        expect(out.slice(0, 2).map((v) => v.level)).toEqual(['ok', 'ok']);
        const last = out[out.length - 1];
        expect(last?.level).toBe('warning');
        expect(last?.message).toMatch(/^\/data \(56\.0%\) would be full in 1\.8 days at the last 7 days' growth/);
        expect(last?.message).not.toContain('/ (');
    });

    it('stays ok above the threshold, without the setting, and on a flat or shrinking disk', () => {
        expect(
            run(nodeExporterDiskSpaceCheck, { threshold: 90, days_until_full_threshold: 1 }, filling(6)).at(-1)?.level
        ).toBe('ok');
        expect(run(nodeExporterDiskSpaceCheck, { threshold: 90 }, filling(6)).at(-1)?.level).toBe('ok');
        const shrinking = Array.from({ length: 7 }, (_, h) => ({ at: h * HOUR, reading: fs(['/data', 80 - h]) }));
        expect(
            run(nodeExporterDiskSpaceCheck, { threshold: 90, days_until_full_threshold: 30 }, shrinking).at(-1)?.level
        ).toBe('ok');
    });

    it('keeps its samples bounded and through a failed scrape', () => {
        const minutes = Array.from({ length: 600 }, (_, m) => ({
            at: m * 60_000,
            reading: fs(['/data', 50 + m / 60]),
        }));
        const out = run(nodeExporterDiskSpaceCheck, { threshold: 99, days_until_full_threshold: 3 }, [
            ...minutes,
            { at: 600 * 60_000, reading: fail('x') },
        ]);
        const memory = out.at(-1)?.memory as { growth: Record<string, unknown[]> };
        expect(memory.growth['/data']?.length).toBeLessThanOrEqual(200);
        expect(out.at(-2)?.level).toBe('warning');
    });
});

describe('nodeExporterDiskSpace read', () => {
    it('reads a real exporter output and explains failures', async () => {
        const lb = await startLoopback(
            routes({
                '/metrics': { body: fixture('synthetic-node-exporter-1.8-filesystem-memory.txt'), type: 'text/plain' },
                '/tmpfs-only': {
                    body: 'node_filesystem_size_bytes{device="tmpfs",fstype="tmpfs",mountpoint="/run"} 10\nnode_filesystem_avail_bytes{device="tmpfs",fstype="tmpfs",mountpoint="/run"} 1\nnode_memory_MemTotal_bytes 10\n',
                    type: 'text/plain',
                },
            })
        );
        const r = await nodeExporterDiskSpaceCheck.read(
            makeCtx('nodeExporterDiskSpace', {}, { node_exporter: `${lb.url}/metrics` })
        );
        expect(r.filesystems.map((f) => f.mountpoint).sort()).toEqual(['/', '/boot/efi', '/var/lib/cosmos']);
        await expect(
            nodeExporterDiskSpaceCheck.read(
                makeCtx('nodeExporterDiskSpace', {}, { node_exporter: `${lb.url}/tmpfs-only` })
            )
        ).rejects.toThrow('reports no real filesystem');
        await expect(nodeExporterDiskSpaceCheck.read(makeCtx('nodeExporterDiskSpace', {}, {}))).rejects.toThrow(
            'has no enabled node_exporter service'
        );
        await lb.close();
    });

    it('uses check_interval_seconds and the alert sleep setting', () => {
        expect(nodeExporterDiskSpaceCheck.intervalSeconds({ check_interval_seconds: 15 })).toBe(15);
        expect(nodeExporterDiskSpaceCheck.alertSleepMinutes({})).toBe(30);
    });
});
