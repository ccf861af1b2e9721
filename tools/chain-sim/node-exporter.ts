// node_exporter /metrics (like :9100): filesystem, memory and load series (protocols.md §5.2).
// The mount table deliberately includes what a console must filter out: tmpfs, /dev/shm, a Docker overlay
// and a bind mount that repeats a real device under a second mountpoint.
import { goFloat } from './format';
import { type Handler, PROM_TYPE } from './http';

export interface Filesystem {
    device: string;
    fstype: string;
    sizeBytes: number;
    /** Free for non-root users; used% = 100 − avail/size×100. */
    availBytes: number;
    /** Blocks reserved for root (ext4 keeps 5%): free = avail + reserved. */
    reservedBytes: number;
    files: number;
    filesFree: number;
    readonly: boolean;
    /** A steady fill: used % grows by `percentPerHour` of real time from `fromPercent` at `sinceMs`, up to 100 %. */
    fill?: { percentPerHour: number; fromPercent: number; sinceMs: number };
}

export interface Mount {
    mountpoint: string;
    /** Several mounts may share one Filesystem (bind mounts); setting disk use on one changes all. */
    fs: Filesystem;
}

export interface HostState {
    mounts: Mount[];
    memory: Record<string, number>;
    load: [number, number, number];
    /** node_exporter ≥ 1.8 adds the `device_error` label (empty unless statfs failed). */
    deviceErrorLabel: boolean;
}

const GiB = 1024 ** 3;

function fs(device: string, fstype: string, sizeBytes: number, usedFraction: number, reserved = 0): Filesystem {
    const reservedBytes = Math.round(sizeBytes * reserved);
    return {
        device,
        fstype,
        sizeBytes,
        availBytes: Math.round(sizeBytes * (1 - usedFraction)),
        reservedBytes,
        files: Math.round(sizeBytes / 16384),
        filesFree: Math.round((sizeBytes / 16384) * (1 - usedFraction / 2)),
        readonly: false,
    };
}

export function createHostState(index: number): HostState {
    // Small per-node differences so that several nodes are distinguishable in the demo.
    const root = fs('/dev/vda1', 'ext4', 200 * GiB, 0.35 + index * 0.03, 0.05);
    const data = fs('/dev/nvme0n1', 'xfs', 2000 * GiB, 0.55 + index * 0.05);
    const run = fs('tmpfs', 'tmpfs', 3.2 * GiB, 0.01);
    const shm = fs('shm', 'tmpfs', 0.0625 * GiB, 0);
    const overlay = fs('overlay', 'overlay', 200 * GiB, 0.35 + index * 0.03);
    const memTotal = 32 * GiB;
    return {
        mounts: [
            { mountpoint: '/', fs: root },
            { mountpoint: '/var/lib/cosmos', fs: data },
            { mountpoint: '/run', fs: run },
            { mountpoint: '/run/lock', fs: fs('tmpfs', 'tmpfs', 5 * 1024 * 1024, 0) },
            { mountpoint: '/dev/shm', fs: shm },
            { mountpoint: '/var/lib/docker/overlay2/3f9c0c7e2b1d/merged', fs: overlay },
            // Docker bind-mounts /etc/hosts from the root device: same device, second mountpoint.
            { mountpoint: '/etc/hosts', fs: root },
        ],
        memory: memoryFor(memTotal, 0.4),
        load: [0.42, 0.38, 0.35],
        deviceErrorLabel: false,
    };
}

function memoryFor(total: number, usedFraction: number): Record<string, number> {
    const available = Math.round(total * (1 - usedFraction));
    return {
        Buffers: Math.round(available * 0.02),
        Cached: Math.round(available * 0.5),
        MemAvailable: available,
        MemFree: Math.round(available * 0.4),
        MemTotal: total,
        Slab: Math.round(total * 0.01),
        SwapFree: 0,
        SwapTotal: 0,
    };
}

/** Set disk use of the filesystem behind `mountpoint` (and so of every mount of that device). */
export function setDiskUse(host: HostState, mountpoint: string, use: { percent?: number; usedBytes?: number }): void {
    const mount = host.mounts.find((m) => m.mountpoint === mountpoint);
    if (!mount)
        throw new Error(`no mountpoint ${mountpoint} (have ${host.mounts.map((m) => m.mountpoint).join(', ')})`);
    const f = mount.fs;
    const used = use.usedBytes ?? (f.sizeBytes * (use.percent ?? 0)) / 100;
    f.availBytes = Math.max(0, Math.round(f.sizeBytes - used));
    f.fill = undefined;
}

const usedPercent = (f: Filesystem) => 100 - (f.availBytes / f.sizeBytes) * 100;

/**
 * Fill the filesystem behind `mountpoint` at a steady `percentPerHour` of real time (0 stops), from `fromPercent`
 * or its use now: a console's days-until-full estimate can be checked against (100 − now%) / rate / 24.
 */
export function fillDisk(host: HostState, mountpoint: string, percentPerHour: number, fromPercent?: number): void {
    const mount = host.mounts.find((m) => m.mountpoint === mountpoint);
    if (!mount)
        throw new Error(`no mountpoint ${mountpoint} (have ${host.mounts.map((m) => m.mountpoint).join(', ')})`);
    advanceFills(host, Date.now());
    const f = mount.fs;
    const start = fromPercent ?? usedPercent(f);
    f.availBytes = Math.max(0, Math.round((f.sizeBytes * (100 - start)) / 100));
    f.fill = percentPerHour > 0 ? { percentPerHour, fromPercent: start, sinceMs: Date.now() } : undefined;
}

/** Brings every filling filesystem to its use at `nowMs`. */
export function advanceFills(host: HostState, nowMs: number): void {
    for (const { fs: f } of host.mounts) {
        if (!f.fill) continue;
        const pct = Math.min(100, f.fill.fromPercent + (f.fill.percentPerHour * (nowMs - f.fill.sinceMs)) / 3_600_000);
        f.availBytes = Math.max(0, Math.round((f.sizeBytes * (100 - pct)) / 100));
    }
}

export function setMemoryUse(host: HostState, use: { percent?: number; usedBytes?: number }): void {
    const total = host.memory.MemTotal ?? 32 * GiB;
    const fraction = use.usedBytes !== undefined ? use.usedBytes / total : (use.percent ?? 0) / 100;
    host.memory = memoryFor(total, Math.min(1, Math.max(0, fraction)));
}

const FS_HELP: [string, string, (f: Filesystem) => number][] = [
    ['avail_bytes', 'Filesystem space available to non-root users in bytes.', (f) => f.availBytes],
    ['device_error', 'Whether an error occurred while getting statistics for the given device.', () => 0],
    ['files', 'Filesystem total file nodes.', (f) => f.files],
    ['files_free', 'Filesystem total free file nodes.', (f) => f.filesFree],
    ['free_bytes', 'Filesystem free space in bytes.', (f) => Math.min(f.sizeBytes, f.availBytes + f.reservedBytes)],
    ['readonly', 'Filesystem read-only status.', (f) => (f.readonly ? 1 : 0)],
    ['size_bytes', 'Filesystem size in bytes.', (f) => f.sizeBytes],
];

export function renderNodeExporter(host: HostState): string {
    advanceFills(host, Date.now());
    const lines: string[] = [
        "# HELP node_exporter_build_info A metric with a constant '1' value labeled by version, revision, branch, goversion from which node_exporter was built, and the goos and goarch for the build.",
        '# TYPE node_exporter_build_info gauge',
        `node_exporter_build_info{branch="HEAD",goarch="amd64",goos="linux",goversion="go1.22.7",revision="sim",version="${host.deviceErrorLabel ? '1.8.2' : '1.5.0'}"} 1`,
    ];
    // Label names in sorted order; series sorted by label values, as client_golang does.
    const labelled = host.mounts
        .map((m) => {
            const labels = host.deviceErrorLabel
                ? `device="${m.fs.device}",device_error="",fstype="${m.fs.fstype}",mountpoint="${m.mountpoint}"`
                : `device="${m.fs.device}",fstype="${m.fs.fstype}",mountpoint="${m.mountpoint}"`;
            return { labels, key: [m.fs.device, m.fs.fstype, m.mountpoint].join('\u0000'), fs: m.fs };
        })
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const [suffix, help, value] of FS_HELP) {
        const name = `node_filesystem_${suffix}`;
        lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`);
        for (const s of labelled) lines.push(`${name}{${s.labels}} ${goFloat(value(s.fs))}`);
    }
    ['load1', 'load15', 'load5'].forEach((name) => {
        const value = host.load[name === 'load1' ? 0 : name === 'load5' ? 1 : 2];
        lines.push(`# HELP node_${name} ${name.slice(4)}m load average.`, `# TYPE node_${name} gauge`);
        lines.push(`node_${name} ${goFloat(value)}`);
    });
    for (const field of Object.keys(host.memory).sort()) {
        const name = `node_memory_${field}_bytes`;
        lines.push(`# HELP ${name} Memory information field ${field}_bytes.`, `# TYPE ${name} gauge`);
        lines.push(`${name} ${goFloat(host.memory[field] ?? 0)}`);
    }
    return `${lines.join('\n')}\n`;
}

export function nodeExporterHandler(host: HostState): Handler {
    return (req) =>
        req.path === '/metrics'
            ? { status: 200, body: renderNodeExporter(host), contentType: PROM_TYPE }
            : { status: 404, body: '404 page not found\n', contentType: 'text/plain; charset=utf-8' };
}
