import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answers } from './responses/answers';
import { chain } from './responses/entities';

/** GET /api/chains?network=mainnet|testnet: the chain directory through the server's cache (and offline fallback). */
export const chainRoutes: FastifyPluginAsyncZod = async (app) => {
    app.get(
        '/api/chains',
        {
            schema: {
                querystring: z.object({ network: z.enum(['mainnet', 'testnet']).default('mainnet') }),
                response: answers({ 200: z.array(chain) }, 400, 401),
            },
        },
        async (req, reply) => {
            const { chains, source } = await app.ctx.chains.list(req.query.network);
            reply.header('X-Chain-Source', source);
            return chains;
        }
    );
};
