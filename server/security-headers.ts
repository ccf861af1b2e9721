import type { FastifyInstance, FastifyReply } from 'fastify';

/** Emotion (MUI) injects <style> tags at run time, hence 'unsafe-inline' for styles only; never for scripts. */
const CSP = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self' ws: wss:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
].join('; ');

/** The headers every answer carries; also called directly where Fastify answers without running hooks. */
export function setSecurityHeaders(reply: FastifyReply): void {
    reply.header('Content-Security-Policy', CSP);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
}

export function registerSecurityHeaders(app: FastifyInstance): void {
    app.addHook('onSend', async (_req, reply) => setSecurityHeaders(reply));
}
