import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestApp } from './helpers';
import { createTestApp } from './helpers';

let t: TestApp;

beforeAll(async () => {
    const ui = mkdtempSync(join(tmpdir(), 'nm-ui-'));
    writeFileSync(join(ui, 'index.html'), '<!doctype html><title>Node Monitor</title><div id="root"></div>');
    t = await createTestApp({ uiDir: ui });
});
afterAll(() => t.close());

describe('platform', () => {
    it('answers /api/health without a session', async () => {
        const res = await t.app.inject({ url: '/api/health' });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ status: 'ok' });
    });

    it('sends the security headers on every response', async () => {
        for (const url of ['/api/health', '/configurations/5', '/api/nope']) {
            const res = await t.app.inject({ url });
            expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
            expect(res.headers['content-security-policy']).toContain("script-src 'self'");
            expect(res.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
            expect(res.headers['x-content-type-options']).toBe('nosniff');
        }
    });

    it('serves index.html for deep links of the browser router', async () => {
        for (const url of ['/configurations/5', '/servers/3', '/monitor/7', '/users/add']) {
            const res = await t.app.inject({ url });
            expect(res.statusCode).toBe(200);
            expect(res.body).toContain('<div id="root">');
        }
    });

    it('answers unknown API paths and missing assets with JSON 404, not the page', async () => {
        const api = await t.app.inject({ url: '/api/nope' });
        expect(api.statusCode).toBe(401);
        const asset = await t.app.inject({ url: '/assets/missing.js' });
        expect(asset.statusCode).toBe(404);
        expect(asset.json()).toEqual({ message: 'Not found' });
    });

    it('serves the global configuration object as a script', async () => {
        const res = await t.app.inject({ url: '/config.js' });
        expect(res.headers['content-type']).toContain('javascript');
        expect(res.body).toContain('window.__NODE_MONITOR_CONFIG__');
        expect(res.body).toContain('"apiUrl":"/api"');
    });

    it('serves an icon at /favicon.ico, where every browser asks for one', async () => {
        const res = await t.app.inject({ url: '/favicon.ico' });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('image/svg+xml');
        expect(res.body).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    });

    it('serves /config.js without an error in the log', async () => {
        const before = t.logs.length;
        const res = await t.app.inject({ url: '/config.js' });
        expect(res.statusCode).toBe(200);
        const lines = t.logs.slice(before).join('\n');
        expect(lines).not.toMatch(/already sent|answered 500|ERR_HTTP_HEADERS_SENT/);
    });
});
