import websocket from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorFromClaims, bearer, requireSuperAdmin } from '../auth/guard';
import { type AccessClaims, verifyAccessToken } from '../auth/tokens';
import { ApiError } from '../errors';
import { Redis } from 'ioredis';
import { requestPathConnection } from '../db/redis';
import { SharedSocketTickets, SocketTickets, type TicketBook } from '../logs/tickets';
import { onRevocation } from '../services/sessions';
import { answers, timestamp } from './responses/answers';

/** A one-time ticket for the log socket, valid for a short while. */
const ticket = z.object({ ticket: z.string(), expiresAt: timestamp });

/** A backstop re-check of an open socket's session; revocations close it at once (see onRevocation). */
const REVALIDATE_MS = 30_000;

function sameOrigin(origin: string | undefined, host: string | undefined): boolean {
    if (!origin || !host) return false;
    try {
        return new URL(origin).host === host;
    } catch {
        return false;
    }
}

/**
 * POST /api/logs/ticket, then WS /api/logs?ticket=…: the server's own log lines for super admins, the last ones
 * replayed on connect. The socket never takes an access token in its URL, where proxies would log it.
 */
export const logRoutes: FastifyPluginAsyncZod = async (app) => {
    await app.register(websocket, { options: { maxPayload: 4096 } });
    const redisUrl = app.ctx.config.redisUrl;
    const redis = redisUrl ? new Redis(requestPathConnection(redisUrl)) : null;
    if (redis) {
        redis.on('error', (err) => app.log.warn(`Log tickets: ${err.message}`));
        app.addHook('onClose', async () => redis.disconnect());
    }
    // Several web processes share their tickets (the cluster profile); one process keeps them in memory.
    const tickets: TicketBook = redis ? new SharedSocketTickets(redis) : new SocketTickets();
    const sessions = new WeakMap<FastifyRequest, AccessClaims>();

    const ticketSchema = { response: answers({ 200: ticket }, 401, 403) };
    app.post('/api/logs/ticket', { onRequest: requireSuperAdmin, schema: ticketSchema }, async (req) => {
        // The guard has accepted this token; its claims tie the socket to this sign-in.
        const claims = await verifyAccessToken(app.ctx.keys.accessToken, bearer(req) ?? '');
        if (!claims) throw new ApiError(401, 'Authentication required');
        return await tickets.issue(claims);
    });

    app.get(
        '/api/logs',
        {
            websocket: true,
            schema: { querystring: z.object({ ticket: z.string().max(256).optional() }) },
            preValidation: async (req) => {
                if (!sameOrigin(req.headers.origin, req.headers.host))
                    throw new ApiError(403, 'Cross-origin log socket refused');
                const claims = await tickets.redeem((req.query as { ticket?: string }).ticket);
                const actor = claims ? await actorFromClaims(app, claims) : null;
                if (!claims || !actor) throw new ApiError(401, 'Authentication required');
                if (!actor.isSuperAdmin) throw new ApiError(403, 'Only super admins can read the log tail');
                sessions.set(req, claims);
            },
        },
        (socket, req) => {
            const claims = sessions.get(req);
            if (!claims) return socket.close(4001, 'Session ended');
            const end = () => {
                if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING)
                    socket.close(4001, 'Session ended');
            };
            for (const line of app.ctx.logHub.recent()) socket.send(JSON.stringify(line));
            const unsubscribe = app.ctx.logHub.subscribe((line) => {
                if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(line));
            });
            const stopListening = onRevocation(app.ctx, (r) => {
                if (r.userId === claims.userId && (!r.familyId || r.familyId === claims.familyId)) end();
            });
            const timer = setInterval(async () => {
                const actor = await actorFromClaims(app, claims).catch(() => null);
                if (!actor?.isSuperAdmin) end();
            }, REVALIDATE_MS);
            socket.on('close', () => {
                unsubscribe();
                stopListening();
                clearInterval(timer);
            });
            // The socket is one-way: anything the client sends is ignored.
            socket.on('message', () => {});
        }
    );
};
