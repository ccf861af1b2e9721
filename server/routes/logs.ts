import websocket from '@fastify/websocket';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorFromToken } from '../auth/guard';
import { ApiError } from '../errors';

/** How often an open socket re-checks its token, so a disabled or demoted user stops receiving lines. */
const REVALIDATE_MS = 30_000;

/** Browsers cannot set headers on a WebSocket, so the token comes as `?token=` or as the subprotocol `bearer.<token>`. */
function socketToken(query: { token?: string }, protocol: string | undefined): string | undefined {
    if (query.token) return query.token;
    const offered = protocol
        ?.split(',')
        .map((p) => p.trim())
        .find((p) => p.startsWith('bearer.'));
    return offered?.slice('bearer.'.length);
}

function sameOrigin(origin: string | undefined, host: string | undefined): boolean {
    if (!origin || !host) return false;
    try {
        return new URL(origin).host === host;
    } catch {
        return false;
    }
}

/** WS /api/logs: the server's own log lines for super admins, the last ones replayed on connect. */
export const logRoutes: FastifyPluginAsyncZod = async (app) => {
    await app.register(websocket, { options: { maxPayload: 4096 } });
    const query = z.object({ token: z.string().max(4096).optional() });
    app.get(
        '/api/logs',
        {
            websocket: true,
            schema: { querystring: query },
            preValidation: async (req) => {
                if (!sameOrigin(req.headers.origin, req.headers.host))
                    throw new ApiError(403, 'Cross-origin log socket refused');
                const token = socketToken(req.query as { token?: string }, req.headers['sec-websocket-protocol']);
                const actor = await actorFromToken(app, token);
                if (!actor) throw new ApiError(401, 'Authentication required');
                if (!actor.isSuperAdmin) throw new ApiError(403, 'Only super admins can read the log tail');
            },
        },
        (socket, req) => {
            const token = socketToken(req.query as { token?: string }, req.headers['sec-websocket-protocol']);
            for (const line of app.ctx.logHub.recent()) socket.send(JSON.stringify(line));
            const unsubscribe = app.ctx.logHub.subscribe((line) => {
                if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(line));
            });
            const timer = setInterval(async () => {
                const actor = await actorFromToken(app, token).catch(() => null);
                if (!actor?.isSuperAdmin) socket.close(4001, 'Session ended');
            }, REVALIDATE_MS);
            socket.on('close', () => {
                unsubscribe();
                clearInterval(timer);
            });
            // The socket is one-way: anything the client sends is ignored.
            socket.on('message', () => {});
        }
    );
};
