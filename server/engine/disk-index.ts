import type { DiskSeen } from './check';

export interface DiskUse {
    serverId: number;
    mountpoint: string;
    usedPercent: number;
    usedBytes: number;
    totalBytes: number;
    at: string;
}

/**
 * The latest disk reading per server, as the disk-space monitors took it: the dashboard's storage figure comes
 * from here instead of scraping every exporter again.
 */
export class DiskIndex {
    private readonly byServer = new Map<number, DiskUse>();
    private readonly mounts = new Map<number, { mountpoint: string; usedPercent: number }[]>();

    record(serverId: number, m: { filesystems: DiskSeen[] }, at: Date): void {
        this.mounts.set(
            serverId,
            m.filesystems.map((f) => ({ mountpoint: f.mountpoint, usedPercent: f.usedPercent }))
        );
        const fullest = [...m.filesystems].sort((a, b) => b.usedPercent - a.usedPercent)[0];
        if (!fullest) return;
        this.byServer.set(serverId, {
            serverId,
            mountpoint: fullest.mountpoint,
            usedPercent: fullest.usedPercent,
            usedBytes: fullest.sizeBytes - fullest.availBytes,
            totalBytes: fullest.sizeBytes,
            at: at.toISOString(),
        });
    }

    forget(serverId: number): void {
        this.byServer.delete(serverId);
        this.mounts.delete(serverId);
    }

    /** Every mountpoint of every server read, with its used percent (the Prometheus page). */
    *mountpoints(): Generator<{ serverId: number; mountpoint: string; usedPercent: number }> {
        for (const [serverId, list] of this.mounts) for (const m of list) yield { serverId, ...m };
    }

    /** The fullest disk among the given servers (all when null), or null when none has been read. */
    fullest(serverIds: Set<number> | null): DiskUse | null {
        let best: DiskUse | null = null;
        for (const use of this.byServer.values()) {
            if (serverIds && !serverIds.has(use.serverId)) continue;
            if (!best || use.usedPercent > best.usedPercent) best = use;
        }
        return best;
    }
}
