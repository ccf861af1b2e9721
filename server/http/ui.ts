import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { FAVICON_SVG } from './favicon';

/**
 * Serves the built SPA, `/config.js` (the browser's global configuration object), and `index.html` for every other
 * non-API GET so that deep links such as /configurations/5 work with the browser router.
 */
export async function registerUi(app: FastifyInstance): Promise<void> {
    const { uiDir, socketUrl } = app.ctx.config;
    // Part of the UI, not of the API document.
    app.get('/config.js', { schema: { hide: true } }, async (_req, reply) => {
        const config = { apiUrl: '/api', socketUrl, chainDirectoryUrl: '/api/chains' };
        // An async handler must return the reply it sent, or Fastify sends it a second time and logs a 500.
        return reply
            .type('application/javascript; charset=utf-8')
            .header('Cache-Control', 'no-store')
            .send(
                `window.__NODE_MONITOR_CONFIG__ = ${JSON.stringify(config)};\n` +
                    // Without an explicit socket URL the log tail connects back to the host that served the page.
                    `if (!window.__NODE_MONITOR_CONFIG__.socketUrl) window.__NODE_MONITOR_CONFIG__.socketUrl = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/api/logs';\n`
            );
    });
    app.get('/favicon.ico', { schema: { hide: true } }, async (_req, reply) =>
        reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400').send(FAVICON_SVG)
    );
    const hasUi = uiDir !== null && existsSync(join(uiDir, 'index.html'));
    if (hasUi) {
        await app.register(fastifyStatic, { root: uiDir, wildcard: false, index: false, maxAge: '1h' });
    }
    app.setNotFoundHandler((req, reply) => {
        const path = req.url.split('?')[0] ?? '';
        if (
            path.startsWith('/api/') ||
            path === '/api' ||
            // Without METRICS_TOKEN the page does not exist: Prometheus gets a 404, not the console's page.
            path === '/metrics' ||
            req.method !== 'GET' ||
            !hasUi ||
            /\.[a-z0-9]+$/i.test(path)
        ) {
            return reply.status(404).send({ message: 'Not found' });
        }
        return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    });
}
