import { createTestApp, type TestApp } from './helpers';
import { registeredRoutes } from './route-table';

let t: TestApp;
beforeAll(async () => {
    t = await createTestApp();
});
afterAll(() => t?.close());

describe('OpenAPI', () => {
    it('documents every API route, with its parameters and body schemas', async () => {
        const res = await t.app.inject({ url: '/api/openapi.json' });
        expect(res.statusCode).toBe(200);
        const doc = res.json() as {
            openapi: string;
            paths: Record<string, Record<string, { parameters?: unknown[]; requestBody?: unknown }>>;
        };
        expect(doc.openapi).toBe('3.1.0');
        const documented = new Set(
            Object.entries(doc.paths).flatMap(([path, ops]) =>
                Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)
            )
        );
        const missing = registeredRoutes(t.app)
            .filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.method !== 'HEAD')
            .filter((r) => !['/api/openapi.json', '/api/logs'].includes(r.url))
            .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`)
            .filter((key) => !documented.has(key));
        expect(missing).toEqual([]);
        expect(documented.size).toBeGreaterThan(30);
        expect(doc.paths['/api/configurations/{id}']?.put?.requestBody).toBeDefined();
        expect(doc.paths['/api/configurations/{id}']?.get?.parameters).toEqual([
            expect.objectContaining({ in: 'path', name: 'id', required: true }),
        ]);
    });

    it('serves the reference page from the package, without a session', async () => {
        const page = await t.app.inject({ url: '/api/docs' });
        expect(page.statusCode).toBe(200);
        expect(page.body).toContain('swagger-ui');
        const script = await t.app.inject({ url: '/api/docs/static/swagger-ui-bundle.js' });
        expect(script.statusCode).toBe(200);
        expect(script.headers['content-type']).toMatch(/javascript/);
    });
});
