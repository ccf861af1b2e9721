import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statfsSync } from 'node:fs';
import type { ServerMetrics } from '../../../common/entities';
import type { DiskMeasurement } from '../../../server/engine/checks/nodeExporterDiskSpace';
import { nodeExporterDiskSpaceCheck } from '../../../server/engine/checks/nodeExporterDiskSpace';
import type { TestApp } from '../helpers';
import { auth, createTestApp, login, seedCompany } from '../helpers';
import { freePort, startNodeExporter } from '../../support/spawn';
import { seedNode } from '../seed';
import { makeCtx } from './checks/ctx';

/**
 * Issue: "Disk and metrics also against Debian's real prometheus-node-exporter started by the test on a loopback
 * port". The figures are checked against what this machine's kernel says (statfs, /proc/meminfo), not against
 * values the test made up.
 */

const BIN = '/usr/bin/prometheus-node-exporter';
// vitest.config.ts runs *.host tests only where the binary exists (and always in CI, which installs it).
if (!existsSync(BIN)) throw new Error(`${BIN} is missing: apt-get install prometheus-node-exporter`);

/** used% as node-mixin and the check compute it: 100 − avail/size × 100. */
function statfsUsedPercent(mountpoint: string): number {
    const s = statfsSync(mountpoint);
    return 100 - (s.bavail / s.blocks) * 100;
}

function meminfoBytes(field: string): number {
    const line = readFileSync('/proc/meminfo', 'utf8')
        .split('\n')
        .find((l) => l.startsWith(`${field}:`));
    const kb = Number(/(\d+)\s*kB/.exec(line ?? '')?.[1]);
    if (!Number.isFinite(kb)) throw new Error(`no ${field} in /proc/meminfo`);
    return kb * 1024;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let exporter: ChildProcess | null = null;
let exporterUrl = '';
let t: TestApp;

beforeAll(async () => {
    ({ child: exporter, url: exporterUrl } = await startNodeExporter());
    t = await createTestApp();
});

afterAll(async () => {
    await t?.close();
    const child = exporter;
    if (child && child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
    }
});

describe('against the real prometheus-node-exporter', () => {
    const ctx = (threshold: number) => makeCtx('nodeExporterDiskSpace', { threshold }, { node_exporter: exporterUrl });

    async function reading(): Promise<DiskMeasurement> {
        return nodeExporterDiskSpaceCheck.read(ctx(80)) as Promise<DiskMeasurement>;
    }

    it('the disk check reads real filesystems whose use matches statfs', async () => {
        const { filesystems } = await reading();
        expect(filesystems.length).toBeGreaterThan(0);
        for (const f of filesystems) {
            // Only real filesystems: no tmpfs, overlay, proc …
            expect(['tmpfs', 'devtmpfs', 'overlay', 'proc', 'sysfs', 'squashfs', 'ramfs']).not.toContain(f.fstype);
            expect(f.mountpoint.startsWith('/')).toBe(true);
            expect(Math.abs(f.usedPercent - statfsUsedPercent(f.mountpoint))).toBeLessThan(1.5);
        }
        // The root filesystem is among them unless the machine runs on an overlay root (a container).
        const rootType = readFileSync('/proc/mounts', 'utf8')
            .split('\n')
            .map((l) => l.split(' '))
            .filter((p) => p[1] === '/')
            .at(-1)?.[2];
        if (rootType && !['overlay', 'tmpfs', 'squashfs', 'rootfs'].includes(rootType)) {
            const root = filesystems.find((f) => f.mountpoint === '/');
            expect(root, 'the / filesystem').toBeDefined();
            expect(Math.abs((root?.usedPercent ?? -100) - statfsUsedPercent('/'))).toBeLessThan(1.5);
            const s = statfsSync('/');
            expect(root?.sizeBytes).toBe(s.blocks * s.bsize);
        }
    });

    it('threshold 100 → ok; threshold 1 → error naming the mountpoints and their real use', async () => {
        const r = { ok: true as const, value: await reading() };
        const high = nodeExporterDiskSpaceCheck.evaluate(undefined, r, { threshold: 100 }, Date.now());
        expect(high.verdict).toEqual({ level: 'ok', message: null });

        const low = nodeExporterDiskSpaceCheck.evaluate(undefined, r, { threshold: 1 }, Date.now());
        expect(low.verdict.level).toBe('error');
        const message = low.verdict.message ?? '';
        expect(message).toMatch(/\(threshold 1%\)$/);
        const fullest = r.value.filesystems[0];
        if (!fullest) throw new Error('no filesystem');
        const named = new RegExp(`(?:^|, )${escapeRe(fullest.mountpoint)} is (\\d+\\.\\d)% full`).exec(message);
        expect(named, `${fullest.mountpoint} in "${message}"`).not.toBeNull();
        expect(Math.abs(Number(named?.[1]) - statfsUsedPercent(fullest.mountpoint))).toBeLessThan(1.5);
        if (r.value.filesystems.some((f) => f.mountpoint === '/')) {
            const root = /(?:^|, )\/ is (\d+\.\d)% full/.exec(message);
            expect(root, `/ in "${message}"`).not.toBeNull();
            expect(Math.abs(Number(root?.[1]) - statfsUsedPercent('/'))).toBeLessThan(1.5);
        }
    });

    describe('GET /api/servers/:id/metrics', () => {
        let token = '';
        let companyId = 0;
        beforeAll(async () => {
            token = (await login(t.app, 'admin', 'admin-password-1')).access;
            companyId = await seedCompany(t.app, 'Metal Inc');
        });
        const get = (serverId: number) =>
            t.app.inject({ method: 'GET', url: `/api/servers/${serverId}/metrics`, headers: auth(token) });
        const diskMonitor = { type: 'nodeExporterDiskSpace' as const, settings: { threshold: 90 } };

        it('answers the spec fields from the real exporter, consistent with statfs and /proc/meminfo', async () => {
            const { serverId } = await seedNode(t.app, {
                companyId,
                services: [{ type: 'node_exporter', address: exporterUrl }],
                monitor: diskMonitor,
            });
            const res = await get(serverId);
            const memUsed = meminfoBytes('MemTotal') - meminfoBytes('MemAvailable');
            expect(res.statusCode, res.body).toBe(200);
            const m = res.json() as ServerMetrics;
            for (const key of [
                'usedDiskSpace',
                'totalDiskSpace',
                'usedDiskSpacePercentage',
                'memoryUsage',
                'totalMemory',
                'memoryUsagePercentage',
            ] as const) {
                expect(typeof m[key], key).toBe('number');
                expect(Number.isFinite(m[key]), key).toBe(true);
            }
            // Disk: the fullest real filesystem, by the kernel's own figures.
            const { filesystems } = await reading();
            expect(m.mountpoint).toBe(filesystems[0]?.mountpoint);
            const mount = m.mountpoint ?? '/';
            const s = statfsSync(mount);
            expect(m.totalDiskSpace).toBe(s.blocks * s.bsize);
            expect(Math.abs(m.usedDiskSpacePercentage - statfsUsedPercent(mount))).toBeLessThan(1.5);
            expect(m.usedDiskSpace).toBeGreaterThan(0);
            expect(m.usedDiskSpace).toBeLessThanOrEqual(m.totalDiskSpace);
            expect(Math.abs(m.usedDiskSpace / m.totalDiskSpace - m.usedDiskSpacePercentage / 100)).toBeLessThan(0.001);
            // Memory: MemTotal − MemAvailable (not MemTotal − MemFree), within a few % of the total.
            expect(m.totalMemory).toBe(meminfoBytes('MemTotal'));
            expect(Math.abs(m.memoryUsage - memUsed) / m.totalMemory).toBeLessThan(0.03);
            expect(Math.abs(m.memoryUsagePercentage - (m.memoryUsage / m.totalMemory) * 100)).toBeLessThan(0.01);
        });

        it('404 with a clear message for a server without a node_exporter service', async () => {
            const { serverId } = await seedNode(t.app, {
                companyId,
                services: [{ type: 'rpc', address: 'http://127.0.0.1:26657' }],
                monitor: { type: 'blockCheck', settings: {} },
            });
            const res = await get(serverId);
            expect(res.statusCode).toBe(404);
            expect(res.json().message).toMatch(/no enabled node_exporter service/);
        });

        it('502 with a clear message when the exporter is down', async () => {
            const downUrl = `http://127.0.0.1:${await freePort()}/metrics`;
            const { serverId } = await seedNode(t.app, {
                companyId,
                services: [{ type: 'node_exporter', address: downUrl }],
                monitor: diskMonitor,
            });
            const res = await get(serverId);
            expect(res.statusCode).toBe(502);
            const message: string = res.json().message;
            expect(message).toMatch(/^node_exporter service /);
            expect(message).toContain(downUrl.replace('/metrics', ''));
            expect(message).toMatch(/refused|could not connect|not reachable/i);
        });
    });
});
