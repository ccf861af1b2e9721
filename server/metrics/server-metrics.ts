import { and, asc, eq } from 'drizzle-orm';
import type { ServerMetrics } from '../../common/entities';
import { openAddress } from '../auth/url-credentials';
import { withPolicy } from '../clients/http';
import { fetchServerMetrics } from '../clients/node-exporter';
import type { AppContext } from '../context';
import { configurations, servers, services } from '../db/schema';
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
            .select({
                address: services.address,
                secret: services.addressSecret,
                companyId: configurations.companyId,
            })
            .from(services)
            .innerJoin(servers, eq(servers.id, services.serverId))
            .innerJoin(configurations, eq(configurations.id, servers.configurationId))
            .where(
                and(eq(services.serverId, serverId), eq(services.type, 'node_exporter'), eq(services.isEnabled, true))
            )
            .orderBy(asc(services.id))
            .limit(1);
        if (!svc)
            throw new ApiError(404, 'This server has no enabled node_exporter service; add one to see its metrics');
        try {
            // Scraped on behalf of the server's company, within its allowed networks.
            const policy = await this.ctx.egress.forCompany(svc.companyId);
            const address = openAddress(this.ctx.keys.secretsAtRest, svc.address, svc.secret);
            return await fetchServerMetrics(withPolicy(this.ctx.http, policy), address);
        } catch (err) {
            throw new ApiError(502, (err as Error).message);
        }
    }
}
