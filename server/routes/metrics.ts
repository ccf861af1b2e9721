import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { companyScope } from '../auth/actor';
import { configurations, servers } from '../db/schema';
import { NodeStatusReader } from '../metrics/node-status';
import { ServerMetricsReader } from '../metrics/server-metrics';
import { daysUntilFullByMountpoint } from '../history/mountpoint-projections';
import { findServer } from '../repositories/servers';
import { z } from 'zod';
import { answers } from './responses/answers';
import { serverMetrics } from './responses/entities';
import { idParams } from '../validation/schemas';

/** The fullest disk among the caller's servers, from the disk monitors' latest readings; null before any. */
const storage = z.object({
    fullest: z
        .object({
            server: z.object({ id: z.number().int(), name: z.string() }),
            mountpoint: z.string(),
            usedDiskSpacePercentage: z.number(),
            usedDiskSpace: z.number(),
            totalDiskSpace: z.number(),
            at: z.string().meta({ format: 'date-time' }),
        })
        .nullable(),
});

const nodeStatus = z.object({
    height: z.number().int(),
    latest_block_time: z.string().nullable(),
    block_lag_seconds: z.number().nullable().describe('Seconds since the latest block'),
    peers: z.number().int(),
    catching_up: z.boolean(),
});

/**
 * GET /api/servers/:id/node: the server's node (height, block lag, peers, catching up) from its rpc service.
 * GET /api/servers/:id/metrics: the spec's server metrics fields from the server's node_exporter.
 * GET /api/servers/storage: the fullest disk among the caller's servers, from the disk monitors' latest readings.
 */
export const metricsRoutes: FastifyPluginAsyncZod = async (app) => {
    const reader = new ServerMetricsReader(app.ctx);
    const nodes = new NodeStatusReader(app.ctx);
    app.get(
        '/api/servers/:id/node',
        { schema: { params: idParams, response: answers({ 200: nodeStatus }, 400, 401, 404, 502) } },
        async (req) => {
            await findServer(app.ctx.db, companyScope(req.actor), req.params.id);
            return nodes.read(req.params.id);
        }
    );
    app.get(
        '/api/servers/:id/metrics',
        { schema: { params: idParams, response: answers({ 200: serverMetrics }, 400, 401, 404, 502) } },
        async (req) => {
            await findServer(app.ctx.db, companyScope(req.actor), req.params.id);
            const metrics = await reader.read(req.params.id);
            const live = app.ctx.engine ? (id: number) => app.ctx.engine?.memoryOf(id) : undefined;
            const projections = (await daysUntilFullByMountpoint(app.ctx.db, [req.params.id], Date.now(), live)).get(
                req.params.id
            );
            return { ...metrics, days_until_full: projections?.get(metrics.mountpoint ?? '/') ?? null };
        }
    );
    const storageSchema = { response: answers({ 200: storage }, 401) };
    app.get('/api/servers/storage', { schema: storageSchema, config: { cacheAnswer: true } }, async (req) => {
        const scope = companyScope(req.actor);
        const visible =
            scope === null
                ? null
                : new Set(
                      (
                          await app.ctx.db
                              .select({ id: servers.id })
                              .from(servers)
                              .innerJoin(configurations, eq(configurations.id, servers.configurationId))
                              .where(eq(configurations.companyId, scope))
                      ).map((r) => r.id)
                  );
        const use = app.ctx.engine?.disks.fullest(visible) ?? null;
        if (!use) return { fullest: null };
        const [server] = await app.ctx.db
            .select({ id: servers.id, name: servers.name })
            .from(servers)
            .where(eq(servers.id, use.serverId));
        if (!server) return { fullest: null };
        return {
            fullest: {
                server,
                mountpoint: use.mountpoint,
                usedDiskSpacePercentage: use.usedPercent,
                usedDiskSpace: use.usedBytes,
                totalDiskSpace: use.totalBytes,
                at: use.at,
            },
        };
    });
};
