import { and, asc, eq } from 'drizzle-orm';
import type { NodeStatus } from '../../common/entities';
import { openAddress } from '../auth/url-credentials';
import { createCometClient } from '../clients/cometbft';
import { withPolicy } from '../clients/http';
import type { AppContext } from '../context';
import { configurations, servers, services } from '../db/schema';
import { ApiError } from '../errors';

const TTL_MS = 10_000;

/**
 * A server's node as its rpc service tells it (CometBFT `/status` and `/net_info`): height, how old its latest block
 * is, peers and whether it is catching up. Cached briefly, as the disk and memory figures are.
 */
export class NodeStatusReader {
    private readonly cache = new Map<number, { at: number; result: Promise<NodeStatus> }>();

    constructor(private readonly ctx: AppContext) {}

    read(serverId: number): Promise<NodeStatus> {
        const hit = this.cache.get(serverId);
        if (hit && Date.now() - hit.at < TTL_MS) return hit.result;
        const result = this.query(serverId);
        this.cache.set(serverId, { at: Date.now(), result });
        result.catch(() => {});
        if (this.cache.size > 10_000) this.cache.delete(this.cache.keys().next().value ?? serverId);
        return result;
    }

    private async query(serverId: number): Promise<NodeStatus> {
        const [svc] = await this.ctx.db
            .select({ address: services.address, secret: services.addressSecret, companyId: configurations.companyId })
            .from(services)
            .innerJoin(servers, eq(servers.id, services.serverId))
            .innerJoin(configurations, eq(configurations.id, servers.configurationId))
            .where(and(eq(services.serverId, serverId), eq(services.type, 'rpc'), eq(services.isEnabled, true)))
            .orderBy(asc(services.id))
            .limit(1);
        if (!svc) throw new ApiError(404, 'This server has no enabled rpc service; add one to see its node');
        try {
            const policy = await this.ctx.egress.forCompany(svc.companyId);
            const address = openAddress(this.ctx.keys.secretsAtRest, svc.address, svc.secret);
            const comet = createCometClient(withPolicy(this.ctx.http, policy), address, AbortSignal.timeout(5000));
            const [status, peers] = await Promise.all([comet.status(), comet.peers()]);
            const at = status.latestBlockTimeMs;
            return {
                height: status.latestHeight,
                latest_block_time: at === null ? null : new Date(at).toISOString(),
                block_lag_seconds: at === null ? null : Math.max(0, Math.round((Date.now() - at) / 1000)),
                peers,
                catching_up: status.catchingUp,
            };
        } catch (err) {
            throw new ApiError(502, (err as Error).message);
        }
    }
}
