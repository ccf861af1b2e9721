import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import type { ServerMetrics } from '../../common/entities';
import { type HttpClient, HttpError, redactUrl } from './http';
import { NodeError } from './wire';

/**
 * node_exporter (:9100/metrics) in Prometheus text format. Disk use is judged per real filesystem
 * (100 − avail/size×100, as the node-mixin alerts do), never summed over every series: pseudo filesystems,
 * node_exporter's own exclusions and failed statfs calls are dropped and bind mounts are counted once.
 * Memory used is MemTotal − MemAvailable.
 */

export interface PromSample {
    name: string;
    labels: Record<string, string>;
    value: number;
}

/** A Go float as exposition prints it: `1.4413293e+07`, `NaN`, `+Inf`, `-Inf`. */
export function parseGoFloat(text: string): number {
    const t = text.trim();
    if (/^\+?Inf$/i.test(t)) return Number.POSITIVE_INFINITY;
    if (/^-Inf$/i.test(t)) return Number.NEGATIVE_INFINITY;
    if (/^NaN$/i.test(t)) return Number.NaN;
    return t === '' ? Number.NaN : Number(t);
}

/** Gauge, counter and untyped samples of an exposition text (histogram and summary internals are not needed). */
export function parsePrometheusText(text: string): PromSample[] {
    const out: PromSample[] = [];
    for (const family of parsePrometheusTextFormat(text)) {
        for (const m of family.metrics) {
            if (m.value !== undefined)
                out.push({ name: family.name, labels: m.labels ?? {}, value: parseGoFloat(m.value) });
        }
    }
    return out;
}

export interface FilesystemUsage {
    mountpoint: string;
    device: string;
    fstype: string;
    sizeBytes: number;
    availBytes: number;
    usedBytes: number;
    usedPercent: number;
}

export interface MemoryUsage {
    totalBytes: number;
    usedBytes: number;
    usedPercent: number;
    /** True when MemAvailable was missing (old kernels) and free+buffers+cached+slab stood in for it. */
    estimated: boolean;
}

/** Pseudo filesystems that never hold chain data: the console's list plus node_exporter's default exclusions. */
const PSEUDO_FSTYPES = new Set(
    (
        'tmpfs ramfs devtmpfs overlay squashfs nsfs autofs binfmt_misc bpf cgroup cgroup2 configfs debugfs devpts ' +
        'fusectl hugetlbfs iso9660 mqueue proc procfs pstore rpc_pipefs securityfs selinuxfs erofs sysfs tracefs rootfs'
    ).split(' ')
);
/** node_exporter's default mount point exclusion. */
const PSEUDO_MOUNTPOINTS =
    /^\/(dev|proc|run\/credentials\/.+|sys|var\/lib\/docker\/.+|var\/lib\/containers\/storage\/.+)($|\/)/;

function isRealFilesystem(fstype: string, mountpoint: string): boolean {
    return !PSEUDO_FSTYPES.has(fstype) && !fstype.startsWith('fuse.') && !PSEUDO_MOUNTPOINTS.test(mountpoint);
}

const fsKey = (l: Record<string, string>) => `${l.device ?? ''}\u0000${l.mountpoint ?? ''}\u0000${l.fstype ?? ''}`;

/** Real filesystems, one per device, fullest first. */
export function filesystemUsage(samples: PromSample[]): FilesystemUsage[] {
    const size = new Map<string, PromSample>();
    const avail = new Map<string, number>();
    const failed = new Set<string>();
    for (const s of samples) {
        const key = fsKey(s.labels);
        // Since v1.8 every series carries device_error: "" normally, the statfs error otherwise.
        const labelError = s.labels.device_error;
        if (labelError !== undefined && labelError !== '' && labelError !== '0') failed.add(key);
        if (s.name === 'node_filesystem_device_error' && s.value === 1) failed.add(key);
        else if (s.name === 'node_filesystem_size_bytes') size.set(key, s);
        else if (s.name === 'node_filesystem_avail_bytes') avail.set(key, s.value);
    }
    const byDevice = new Map<string, FilesystemUsage>();
    for (const [key, s] of size) {
        const a = avail.get(key);
        const { device = '', mountpoint = '', fstype = '' } = s.labels;
        if (failed.has(key) || a === undefined || !isRealFilesystem(fstype, mountpoint)) continue;
        if (!Number.isFinite(s.value) || s.value <= 0 || !Number.isFinite(a)) continue;
        const fs: FilesystemUsage = {
            mountpoint,
            device,
            fstype,
            sizeBytes: s.value,
            availBytes: a,
            usedBytes: Math.max(0, s.value - a),
            usedPercent: Math.min(100, Math.max(0, 100 - (a / s.value) * 100)),
        };
        // A bind mount repeats its device under another mount point; name it by the shortest one.
        const seen = byDevice.get(device || key);
        if (!seen || mountpoint.length < seen.mountpoint.length) byDevice.set(device || key, fs);
    }
    return [...byDevice.values()].sort(
        (x, y) => y.usedPercent - x.usedPercent || x.mountpoint.localeCompare(y.mountpoint)
    );
}

export function memoryUsage(samples: PromSample[]): MemoryUsage | null {
    const field = (name: string) => samples.find((s) => s.name === `node_memory_${name}_bytes`)?.value;
    const total = field('MemTotal');
    if (total === undefined || !Number.isFinite(total) || total <= 0) return null;
    let available = field('MemAvailable');
    const estimated = available === undefined || !Number.isFinite(available);
    if (estimated) {
        available = ['MemFree', 'Buffers', 'Cached', 'Slab'].reduce((sum, f) => sum + (field(f) ?? 0), 0);
    }
    const used = Math.min(total, Math.max(0, total - (available ?? 0)));
    return { totalBytes: total, usedBytes: used, usedPercent: (used / total) * 100, estimated };
}

export interface NodeExporterReading {
    filesystems: FilesystemUsage[];
    memory: MemoryUsage | null;
}

export function readNodeExporterText(text: string): NodeExporterReading {
    const samples = parsePrometheusText(text);
    return { filesystems: filesystemUsage(samples), memory: memoryUsage(samples) };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The `/api/servers/{id}/metrics` shape: the fullest real filesystem and memory. */
export function toServerMetrics(reading: NodeExporterReading): ServerMetrics {
    const fs = reading.filesystems[0];
    const mem = reading.memory;
    return {
        usedDiskSpace: fs?.usedBytes ?? 0,
        totalDiskSpace: fs?.sizeBytes ?? 0,
        usedDiskSpacePercentage: round2(fs?.usedPercent ?? 0),
        memoryUsage: mem?.usedBytes ?? 0,
        totalMemory: mem?.totalBytes ?? 0,
        memoryUsagePercentage: round2(mem?.usedPercent ?? 0),
        ...(fs ? { mountpoint: fs.mountpoint } : {}),
    };
}

const LABEL = 'node_exporter service';

/** Scrapes a node_exporter URL. A body without filesystem or memory metrics is an error (wrong port or path). */
export async function fetchNodeExporter(
    http: HttpClient,
    url: string,
    signal?: AbortSignal
): Promise<NodeExporterReading> {
    let text: string;
    try {
        text = await http.getText(url, { signal, headers: { accept: 'text/plain' } });
    } catch (err) {
        throw new NodeError(`${LABEL} ${err instanceof HttpError ? err.message : String(err)}`);
    }
    let reading: NodeExporterReading;
    try {
        reading = readNodeExporterText(text);
    } catch {
        throw new NodeError(`${LABEL} ${redactUrl(url)} answered text that is not Prometheus format`);
    }
    if (reading.filesystems.length === 0 && !reading.memory) {
        throw new NodeError(
            `${LABEL} ${redactUrl(url)} exposes no node_filesystem or node_memory metrics: is it a node_exporter endpoint?`
        );
    }
    return reading;
}

export async function fetchServerMetrics(http: HttpClient, url: string, signal?: AbortSignal): Promise<ServerMetrics> {
    return toServerMetrics(await fetchNodeExporter(http, url, signal));
}
