import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Emotion (MUI) injects <style> tags at run time, hence 'unsafe-inline' for styles only; never for scripts.
 * `connect-src 'self'` covers the same-origin log socket (ws/wss) in current browsers; a log socket on another
 * host (SOCKET_URL) is allowed by its exact origin, never any ws:/wss: host.
 */
export function contentSecurityPolicy(socketUrl: string | null): string {
    const socketOrigin = socketUrl ? new URL(socketUrl).origin : null;
    return [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        `connect-src 'self'${socketOrigin && socketOrigin !== 'null' ? ` ${socketOrigin}` : ''}`,
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ].join('; ');
}

/** The headers every answer carries; also called directly where Fastify answers without running hooks. */
export function setSecurityHeaders(
    reply: FastifyReply,
    csp = contentSecurityPolicy(reply.server.ctx?.config.socketUrl ?? null)
): void {
    reply.header('Content-Security-Policy', csp);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
}

/** An API answer carries tokens or tenant data: no browser or proxy cache may keep it. */
function isApi(req: FastifyRequest): boolean {
    return (req.routeOptions.url ?? req.url).startsWith('/api/') || Boolean(req.actor);
}

export function registerSecurityHeaders(app: FastifyInstance): void {
    const csp = contentSecurityPolicy(app.ctx.config.socketUrl);
    app.addHook('onSend', async (req, reply) => {
        setSecurityHeaders(reply, csp);
        if (isApi(req)) reply.header('Cache-Control', 'no-store');
    });
}
