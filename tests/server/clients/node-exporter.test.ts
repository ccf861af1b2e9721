import { createHttpClient, withPolicy } from '../../../server/clients/http';
import {
    fetchNodeExporter,
    fetchServerMetrics,
    filesystemUsage,
    memoryUsage,
    parsePrometheusText,
    readNodeExporterText,
    toServerMetrics,
} from '../../../server/clients/node-exporter';
import { fixture, startLoopback } from '../check-support';

describe('node_exporter parsing', () => {
    it('reads the captured 1.5.0 output: avail/size, not (size−free)/size', () => {
        const r = readNodeExporterText(fixture('node-exporter-1.5.0-filesystem-memory.txt'));
        expect(r.filesystems.map((f) => f.mountpoint)).toEqual(['/']);
        expect(r.filesystems[0]?.usedPercent).toBeCloseTo(100 - (8.1394819072e10 / 2.70553174016e11) * 100, 6);
        expect(r.memory?.usedBytes).toBe(2.5276514304e10 - 2.4499552256e10);
        expect(r.memory?.estimated).toBe(false);
    });

    it('drops tmpfs from the synthetic 1.8 output and sorts fullest first', () => {
        const fs = readNodeExporterText(fixture('synthetic-node-exporter-1.8-filesystem-memory.txt')).filesystems;
        expect(fs.map((f) => f.fstype)).not.toContain('tmpfs');
        expect(fs.map((f) => f.mountpoint).sort()).toEqual(['/', '/boot/efi', '/var/lib/cosmos']);
        for (let i = 1; i < fs.length; i++)
            expect(fs[i - 1]?.usedPercent).toBeGreaterThanOrEqual(fs[i]?.usedPercent ?? 0);
    });

    it('handles exponents, NaN, +Inf and escaped label values', () => {
        const s = parsePrometheusText('a{x="q\\"uote\\\\d\\n"} 1.4413293e+07\nb NaN\nc +Inf\nd -Inf\n');
        expect(s[0]).toEqual({ name: 'a', labels: { x: 'q"uote\\d\n' }, value: 14413293 });
        expect(Number.isNaN(s[1]?.value)).toBe(true);
        expect(s[2]?.value).toBe(Number.POSITIVE_INFINITY);
        expect(s[3]?.value).toBe(Number.NEGATIVE_INFINITY);
    });

    const series = (labels: string, size: number, avail: number, extra = '') =>
        `node_filesystem_size_bytes{${labels}} ${size}\nnode_filesystem_avail_bytes{${labels}} ${avail}\n${extra}`;

    it.each([
        ['overlay', 'device="overlay",fstype="overlay",mountpoint="/"'],
        ['squashfs', 'device="/dev/loop0",fstype="squashfs",mountpoint="/snap/core/1"'],
        ['fuse.lxcfs', 'device="lxcfs",fstype="fuse.lxcfs",mountpoint="/var/lib/lxcfs"'],
        ['nsfs', 'device="nsfs",fstype="nsfs",mountpoint="/run/docker/netns/x"'],
        ['docker mount', 'device="/dev/sda1",fstype="ext4",mountpoint="/var/lib/docker/overlay2/abc"'],
        ['device_error label', 'device="/dev/sdb",device_error="input/output error",fstype="ext4",mountpoint="/data"'],
    ])('excludes %s', (_name, labels) => {
        expect(filesystemUsage(parsePrometheusText(series(labels, 100, 1)))).toEqual([]);
    });

    it('excludes a filesystem whose device_error gauge is 1', () => {
        const labels = 'device="/dev/sdb",fstype="ext4",mountpoint="/data"';
        expect(
            filesystemUsage(parsePrometheusText(series(labels, 100, 1, `node_filesystem_device_error{${labels}} 1\n`)))
        ).toEqual([]);
    });

    it('leaves out the initramfs rootfs that shadows / on some hosts', () => {
        const text =
            series('device="rootfs",fstype="rootfs",mountpoint="/"', 100, 10) +
            series('device="/dev/sda1",fstype="ext4",mountpoint="/"', 100, 10);
        expect(filesystemUsage(parsePrometheusText(text)).map((f) => f.device)).toEqual(['/dev/sda1']);
    });

    it('counts a bind-mounted device once, under its shortest mount point', () => {
        const text =
            series('device="/dev/sda1",fstype="ext4",mountpoint="/"', 100, 10) +
            series('device="/dev/sda1",fstype="ext4",mountpoint="/etc/hosts"', 100, 10);
        const fs = filesystemUsage(parsePrometheusText(text));
        expect(fs).toHaveLength(1);
        expect(fs[0]).toMatchObject({ mountpoint: '/', usedPercent: 90 });
    });

    it('falls back to free+buffers+cached+slab without MemAvailable', () => {
        const m = memoryUsage(
            parsePrometheusText(
                'node_memory_MemTotal_bytes 1000\nnode_memory_MemFree_bytes 100\nnode_memory_Buffers_bytes 50\nnode_memory_Cached_bytes 200\nnode_memory_Slab_bytes 50\n'
            )
        );
        expect(m).toEqual({ totalBytes: 1000, usedBytes: 600, usedPercent: 60, estimated: true });
    });

    it('gives the ServerMetrics shape with used memory, not free', () => {
        const metrics = toServerMetrics(
            readNodeExporterText(fixture('synthetic-node-exporter-1.8-filesystem-memory.txt'))
        );
        expect(metrics.mountpoint).toBeDefined();
        expect(metrics.memoryUsage).toBe(1.3469003776e11 - 9.663676416e10);
        expect(metrics.memoryUsagePercentage).toBeCloseTo(28.25, 1);
        expect(metrics.usedDiskSpacePercentage).toBeGreaterThan(0);
    });
});

describe('fetchNodeExporter', () => {
    it('scrapes a loopback exporter and rejects a non-exporter endpoint', async () => {
        const lb = await startLoopback((req, res) => {
            res.end(
                req.url === '/metrics' ? fixture('node-exporter-1.5.0-filesystem-memory.txt') : '<html>hello</html>'
            );
        });
        const http = withPolicy(createHttpClient({ timeoutMs: 2000 }), { allowedNetworks: ['127.0.0.0/8'] });
        expect((await fetchServerMetrics(http, `${lb.url}/metrics`)).mountpoint).toBe('/');
        await expect(fetchNodeExporter(http, `${lb.url}/other`)).rejects.toThrow(
            'exposes no node_filesystem or node_memory metrics'
        );
        await lb.close();
    });
});
