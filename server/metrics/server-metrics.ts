import { and, asc, eq } from 'drizzle-orm';
import type { ServerMetrics } from '../../common/entities';
import { fetchServerMetrics } from '../clients/node-exporter';
import type { AppContext } from '../context';
import { services } from '../db/schema';
import { ApiError } from '../errors';

const TTL_MS = 10_000;

interface Entry {
    at: number;
    result: Promise<ServerMetrics>;
}

/**
 * Disk and memory of a server from its node_exporter service, cached briefly so that several open pages (and the
 * dashboard's storage figure) do not scrape the exporter once each.
 */
export class ServerMetricsReader {
    private readonly cache = new Map<number, Entry>();

    constructor(private readonly ctx: AppContext) {}

    read(serverId: number): Promise<ServerMetrics> {
        const hit = this.cache.get(serverId);
        if (hit && Date.now() - hit.at < TTL_MS) return hit.result;
        const result = this.scrape(serverId);
        this.cache.set(serverId, { at: Date.now(), result });
        // A failure is cached as briefly as a success: an exporter that is down is not hammered either.
        result.catch(() => {});
        if (this.cache.size > 10_000) this.cache.delete(this.cache.keys().next().value ?? serverId);
        return result;
    }

    private async scrape(serverId: number): Promise<ServerMetrics> {
        const [svc] = await this.ctx.db
            .select({ address: services.address })
            .from(services)
            .where(
                and(eq(services.serverId, serverId), eq(services.type, 'node_exporter'), eq(services.isEnabled, true))
            )
            .orderBy(asc(services.id))
            .limit(1);
        if (!svc)
            throw new ApiError(404, 'This server has no enabled node_exporter service; add one to see its metrics');
        try {
            return await fetchServerMetrics(this.ctx.http, svc.address);
        } catch (err) {
            throw new ApiError(502, (err as Error).message);
        }
    }
}
